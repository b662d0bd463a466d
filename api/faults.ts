// Test fault points (issue 14 §3, tests/integration/faults.test.ts). To prove that a server killed
// with SIGKILL at one exact moment loses and duplicates nothing, a test starts it with
// GALERIE_FAULT_PAUSE=<point>: on reaching that point the process logs one line and waits there
// for ever, and the test kills it. Nothing else can stop a process between two statements of one
// request every time: the embedded database lives inside it, so it cannot be held busy from outside.
// Without that variable (always, outside that test) a fault point is one comparison.
import { log } from './log.ts';

/** The moments a test may pause the server at. */
export type FaultPoint =
  /** A payment's transaction has made every change and is about to commit. */
  | 'fulfil-commit'
  /** A payment is committed; its mails are about to be sent. */
  | 'fulfil-mail'
  /** A payment that came too late for its works is committed as refunded; the refund is next. */
  | 'fulfil-refund';

/** Resolves at once, unless GALERIE_FAULT_PAUSE names `point`: then never. */
export function faultPoint(point: FaultPoint): Promise<void> {
  if (process.env['GALERIE_FAULT_PAUSE'] !== point) return Promise.resolve();
  log.warn(`fault point ${point}: paused (GALERIE_FAULT_PAUSE), waiting to be killed`);
  return new Promise<void>(() => {});
}
