// Waiting for a state, never for time (CONVENTIONS 10): poll a condition until it holds. The
// deadline bounds a failure only — a passing run never waits for it — so it is generous enough
// for a loaded machine or every test file on one core.
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Falsy = false | 0 | '' | null | undefined;

/** Polls `check` until it returns something truthy (returned); fails naming `what` after `ms`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | Falsy> | T | Falsy,
  ms = 300_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
