// What a screen tells the publish pill (issue 27: no window events). A change that may alter the
// public pages calls nudgePublish() after its mutation succeeded; the pill (./publish-pill.ts)
// subscribes and asks the server for the publish status at once. One module instance per page:
// the islands and the shell's script share it through the bundle's common chunk.
import { atom } from 'nanostores';

export const publishNudge = atom(0);

export function nudgePublish(): void {
  publishNudge.set(publishNudge.get() + 1);
}
