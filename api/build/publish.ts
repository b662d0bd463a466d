// The running server's publish queue, reachable from services and from the Astro handler (bundled
// separately) through a process-wide symbol, like the database (api/db/context.ts). Outside the
// server (tests, CLI, astro dev) there is no queue and asking for a publish does nothing.
import type { PublishStatus } from './publisher.ts';

export interface PublishQueue {
  request(reason?: string): void;
  status(): PublishStatus;
}

const KEY = Symbol.for('galerie.publisher');
const holder = globalThis as { [KEY]?: PublishQueue };

export function providePublisher(queue: PublishQueue | undefined): void {
  if (queue) holder[KEY] = queue;
  else delete holder[KEY];
}

/** Asks for a publish after a committed change that a prerendered page shows. */
export function requestPublish(reason?: string): void {
  holder[KEY]?.request(reason);
}

export function publishStatus(): PublishStatus | null {
  return holder[KEY]?.status() ?? null;
}
