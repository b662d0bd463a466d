// The running server's publish queue, reachable from services and from the Astro handler (bundled
// separately) through a process-wide symbol, like the database (api/db/context.ts). Outside the
// server (tests, CLI, astro dev) there is no queue and asking for a publish does nothing.
import type { PublishRequest, PublishStatus } from './publisher.ts';

export type { PublishChange } from './publisher.ts';

export interface PublishQueue {
  request(reason?: string, options?: PublishRequest): void;
  status(): PublishStatus;
}

const KEY = Symbol.for('galerie.publisher');
const holder = globalThis as { [KEY]?: PublishQueue };

export function providePublisher(queue: PublishQueue | undefined): void {
  if (queue) holder[KEY] = queue;
  else delete holder[KEY];
}

/**
 * Asks for a publish after a committed change that a prerendered page may show. The queue builds
 * only when the catalogue snapshot the pages are built from differs from the served version's,
 * unless `force` (a publish asked for by hand). `reason` goes to the log; `options.change` says
 * what changed to the owner (the back office's publish pill), e.g. `{ kind: 'work', title }`.
 */
export function requestPublish(reason?: string, options?: PublishRequest): void {
  holder[KEY]?.request(reason, options);
}

export function publishStatus(): PublishStatus | null {
  return holder[KEY]?.status() ?? null;
}

const STANDBY = Symbol.for('galerie.publish-standby');
const standbyHolder = globalThis as { [STANDBY]?: () => void };

/** The running server's way to get a build ready ahead of a publish (./standby.ts). */
export function provideStandby(prepare: (() => void) | undefined): void {
  if (prepare) standbyHolder[STANDBY] = prepare;
  else delete standbyHolder[STANDBY];
}

/**
 * A signed-in administrator is at work: a publish is likely soon, so the server gets a build
 * ready for it (./standby.ts). Does nothing outside the server, or when one is ready already.
 */
export function preparePublish(): void {
  standbyHolder[STANDBY]?.();
}
