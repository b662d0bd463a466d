// Promo codes are short words a guesser can try one after another (issue 24, break 6: 150 guesses
// in 1.2 s, never refused; checkout's promoCode field a second oracle). Wrong codes, on either
// path — the cart's field (POST /api/cart/promo) and checkout's `promoCode` — count against the
// cart and against the client's network (an IPv6 client: its /64). Every attempt is counted
// first, atomically, so a burst cannot slip past the limit, and given back once the code proved
// right: a buyer who types the right code costs nothing. Past either limit the answer is 429
// `rate_limited` with Retry-After whatever the code, so a refused guess tells nothing.
import { clientNetwork } from '../checkout/limits.ts';
import { systemClock } from '../clock.ts';
import type { Database } from '../db/index.ts';
import { AppError, isAppError } from '../http/errors.ts';
import { hit, rateLimitKey, unhit, type RateLimitRule } from '../ratelimit/index.ts';

/** Wrong codes allowed an hour. */
export const PROMO_ATTEMPT_LIMITS = {
  perCart: { limit: 10, windowSeconds: 3600 },
  perAddress: { limit: 30, windowSeconds: 3600 },
} as const satisfies Record<string, RateLimitRule>;

export interface PromoAttempt {
  /** The visitor's cart (the cookie's), when it has one. */
  cartId: string | null | undefined;
  /** The client's address ('' when unknown). */
  ip: string;
}

/**
 * Runs `use`, which tries a code, as one attempt: refused with 429 once the cart or the address has
 * had its share of wrong codes; counted as wrong when `use` throws `promo_invalid`.
 */
export async function withPromoAttempt<T>(
  db: Database,
  attempt: PromoAttempt,
  use: () => Promise<T>,
  now: Date = systemClock(),
): Promise<T> {
  const counters: [string, RateLimitRule][] = [];
  if (attempt.cartId)
    counters.push([rateLimitKey('promo:cart', attempt.cartId), PROMO_ATTEMPT_LIMITS.perCart]);
  if (attempt.ip)
    counters.push([
      rateLimitKey('promo:ip', clientNetwork(attempt.ip)),
      PROMO_ATTEMPT_LIMITS.perAddress,
    ]);
  // Counted one allowance after the other, each atomically. A refused attempt tries no code, so
  // it counts against nothing: the hits it took are given back, and the next allowance is not
  // touched — in a burst the attempts a cart refuses never use up its network's share.
  const taken: [string, RateLimitRule][] = [];
  const giveBack = () => Promise.all(taken.map(([key, rule]) => unhit(db, key, rule, now)));
  for (const [key, rule] of counters) {
    const result = await hit(db, key, rule, now);
    taken.push([key, rule]);
    if (!result.allowed) {
      await giveBack();
      throw new AppError('rate_limited', { retryAfterSeconds: result.retryAfterSeconds });
    }
  }
  try {
    const result = await use();
    await giveBack();
    return result;
  } catch (error) {
    if (!isAppError(error, 'promo_invalid')) await giveBack();
    throw error;
  }
}
