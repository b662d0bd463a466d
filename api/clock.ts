// The one way services learn the time (docs/decisions/014): a service's dependencies may carry a
// `now` clock (tests pass a fixed one); low-level helpers take the `now: Date` their service read.
// Nothing else asks the system for the current time.
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** The time for one service call: its injected clock, else the system's. */
export function timeOf(deps: { now?: Clock | undefined }): Date {
  return (deps.now ?? systemClock)();
}
