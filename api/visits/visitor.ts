// Who a visitor is, for one day only: SHA-256 of a salt, the client address and the user agent.
// The salt is 32 random bytes held in this process's memory and replaced when the Europe/Paris day
// changes; it is never written anywhere, so a hash cannot be linked to the same visitor on another
// day, nor recomputed from an address once the day is over (issue 12 item 9).
import { hash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { attachedClient } from '../http/client.ts';

const PARIS_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const HOUR_MS = 3_600_000;
// Paris is a whole number of hours from UTC (+1 or +2), so its day only changes on a UTC hour:
// the formatted day is reused within the hour (formatting costs more than the rest of a view).
let cached = { from: 0, until: 0, day: '' };

/** The Europe/Paris calendar day of an instant, as YYYY-MM-DD (en-CA formats dates that way). */
export function parisDay(instant: Date): string {
  const t = instant.getTime();
  if (t >= cached.from && t < cached.until) return cached.day;
  const from = Math.floor(t / HOUR_MS) * HOUR_MS;
  cached = { from, until: from + HOUR_MS, day: PARIS_DAY.format(instant) };
  return cached.day;
}

/**
 * The address a visitor is counted under: the client the HTTP layer resolved for the request
 * (TRUST_PROXY, api/http/client.ts), the same one every per-address limit uses.
 */
export function clientAddress(req: IncomingMessage): string {
  return attachedClient(req).address;
}

export const SALT_BYTES = 32;
export const VISITOR_HASH_BYTES = 16;

/** The salt of the current day: a new one the first time a new day is asked for. */
export class DailySalt {
  #day = '';
  #salt: Buffer = Buffer.alloc(0);
  readonly #random: (size: number) => Buffer;

  constructor(random: (size: number) => Buffer = randomBytes) {
    this.#random = random;
  }

  /** Forgets the salt of a day before `today`, even when no one came since midnight. */
  retire(today: string): void {
    if (this.#day !== '' && this.#day < today) {
      this.#salt = Buffer.alloc(0);
      this.#day = '';
    }
  }

  /** The salt for `day`; the previous day's salt is forgotten. */
  for(day: string): Buffer {
    if (day !== this.#day) {
      this.#salt = this.#random(SALT_BYTES);
      this.#day = day;
    }
    return this.#salt;
  }
}

/**
 * SHA-256(salt ‖ address ‖ user agent) truncated to 16 bytes. A newline separates the address from
 * the user agent so that no two different pairs concatenate to the same text.
 */
export function visitorHash(salt: Buffer, address: string, userAgent: string): Buffer {
  // One crypto.hash call: cheaper than createHash().update()… for input this short.
  const input = Buffer.concat([salt, Buffer.from(`${address}\n${userAgent}`)]);
  return hash('sha256', input, 'buffer').subarray(0, VISITOR_HASH_BYTES);
}
