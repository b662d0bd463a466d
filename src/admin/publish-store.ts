// What a screen tells the publish pill (issue 27: no window events). A change that may alter the
// public pages calls nudgePublish() after its mutation succeeded; the pill (./publish-pill.ts)
// listens and asks the server for the publish status at once. One module instance per page: the
// islands and the shell's script share it through the bundle's common chunk.
// A signal, not state, so a module-scoped EventTarget rather than a nanostore: the storefront's
// page script is then the only code that imports nanostores, which keeps it inside that script's
// one file instead of a chunk shared with the back office (docs/decisions/051).
const nudges = new EventTarget();

export function nudgePublish(): void {
  nudges.dispatchEvent(new Event('nudge'));
}

/** Calls `listener` after each nudge; returns the function that stops it. */
export function onPublishNudge(listener: () => void): () => void {
  nudges.addEventListener('nudge', listener);
  return () => nudges.removeEventListener('nudge', listener);
}
