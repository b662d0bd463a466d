// Who may hold works, and how many at once (issue 14 "Anyone can hold the whole catalogue").
// A checkout holds its works for ~36 minutes before any payment, so holds are a resource each
// client gets a little of:
// - per cart, one checkout in progress: a new checkout of the same cart supersedes the previous
//   one (index.ts releases its holds and expires its payment session);
// - per client address, at most CHECKOUT_LIMITS.perAddress unpaid checkouts with live holds, from
//   any number of carts; the next one is refused with 429 `rate_limited` and Retry-After.
// A real buyer uses one cart, so only a household or office sharing one address with several
// buyers paying at the same minute could meet the address limit. Paid, expired, superseded and
// cancelled checkouts never count.
//
// The address is kept as a hash on the order (orders.client_key), and only while the order waits
// for its payment: closing an order clears it, and the sweeper clears it from paid ones.
import { isIP } from 'node:net';
import { sql, type Transaction } from 'kysely';
import type { Executor } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { rateLimitKey } from '../ratelimit/index.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';

export const CHECKOUT_LIMITS = {
  /** Unpaid checkouts holding works, per client address (an IPv6 client: per /64 network). */
  perAddress: 3,
} as const;

/** The advisory-lock class of per-client checkout locks (two-key form: its own key space). */
const LOCK_CLASS = 0x43_48_4b_54; // 'CHKT'

/** The eight hextets of an IPv6 address, a trailing dotted IPv4 part included. */
function hextets(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const first = head ? head.split(':') : [];
  const last = tail ? tail.split(':') : [];
  const gap = tail === undefined ? 0 : 8 - first.length - last.length;
  return [...first, ...Array<string>(gap).fill('0'), ...last].map((h) => parseInt(h, 16));
}

/**
 * The network a client address stands for: an IPv4 address itself (an IPv4-mapped IPv6 one
 * too); for IPv6, its /64 — one subscriber line gets a whole /64, so counting single addresses
 * would let one client take 2^64 of them.
 */
export function clientNetwork(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const groups = hextets(address);
  if (groups.length !== 8 || groups.some((g) => !(g >= 0 && g <= 0xffff))) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The hash an order keeps of its client's address (the rate limits' hashing). */
export function clientKey(ip: string): string {
  return rateLimitKey('checkout', clientNetwork(ip));
}

/**
 * Refuses a checkout when the client already has its share of unpaid checkouts holding works
 * (`orderId`, the checkout being made, aside). Called inside the checkout's transaction, after its
 * holds were placed — so a work someone else holds is reported as such first — and under a lock
 * per client, so two checkouts from one client side by side cannot both slip under the limit.
 */
export async function assertWithinClientLimit(
  trx: Transaction<DB>,
  key: string,
  orderId: string,
  now: Date,
  graceSeconds: number,
): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${key}))`.execute(trx);
  const row = await trx
    .selectFrom('orders as o')
    .innerJoin('holds as h', 'h.order_id', 'o.id')
    .select((eb) => [
      eb.fn.count<string>('o.id').distinct().as('n'),
      eb.fn.min('h.expires_at').as('first'),
    ])
    .where('o.client_key', '=', key)
    .where('o.id', '<>', orderId)
    .where('o.payment_status', '=', Payment.unpaid)
    .where('o.status', '=', Fulfilment.pending)
    .where('h.state', '=', 'active')
    .where('h.expires_at', '>', now)
    .executeTakeFirstOrThrow();
  if (Number(row.n) < CHECKOUT_LIMITS.perAddress) return;
  // The earliest of them ends with its payment session (its holds outlive it by the grace).
  const first = row.first ? new Date(row.first).getTime() : now.getTime();
  const seconds = Math.max(1, Math.ceil((first - now.getTime()) / 1000) - graceSeconds);
  throw new AppError('rate_limited', {
    message: 'Too many checkouts in progress from this address; finish one or try again later.',
    retryAfterSeconds: seconds,
    params: { minutes: Math.ceil(seconds / 60) },
  });
}

/** Forgets the client of orders no longer waiting for their payment. Returns how many. */
export async function forgetFinishedClients(db: Executor): Promise<number> {
  const result = await db
    .updateTable('orders')
    .set({ client_key: null })
    .where('client_key', 'is not', null)
    .where((eb) =>
      eb.or([eb('payment_status', '<>', Payment.unpaid), eb('status', '<>', Fulfilment.pending)]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
