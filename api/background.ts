// Work a request starts but does not wait for: the mails of the account forms, sent after the
// answer so that its timing tells nothing (api/accounts). Tracked here, so a clean shutdown lets
// it finish before the database closes, and a test can wait for it instead of for time.
const pending = new Set<Promise<unknown>>();

/** Runs on after the answer; `work` must handle its own failure (it is never awaited by a request). */
export function afterAnswer<T>(work: Promise<T>): Promise<T> {
  pending.add(work);
  void work.finally(() => pending.delete(work));
  return work;
}

/** Resolves once every piece of after-answer work started so far (and any it started) is over. */
export async function afterAnswerSettled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
