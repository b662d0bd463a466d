// Issue 24, break 6: 150 guesses on /api/cart/promo in 1.2 s, never a 429, and checkout's
// promoCode field a second oracle. Wrong codes now count against the cart and the client's
// network on both paths; past either allowance every code — the right one too — gets 429 with
// Retry-After, so a refused guess tells nothing. Right codes cost nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_COOKIE, newCartId } from '#api/cart/index.ts';
import { PROMO_ATTEMPT_LIMITS } from '#api/cart/promo-attempts.ts';
import { provideDatabase } from '#api/db/context.ts';
import { providePayments, type Payments } from '#api/payments/index.ts';
import { DELETE as REMOVE_PROMO, POST as APPLY_PROMO } from '../../src/pages/api/cart/promo.ts';
import { POST as CHECKOUT } from '../../src/pages/api/checkout/index.ts';
import { checkoutRequest } from '../helpers/checkout.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';

const ORIGIN = 'http://localhost:4321';
const RIGHT = 'WELCOME10';
let t: TestDatabase;
let networks = 0;

/** A client address of its own for each test: 198.51.100.x. */
const newAddress = () => `198.51.100.${++networks}`;

async function newCart(): Promise<string> {
  const id = newCartId();
  await t.db.insertInto('carts').values({ id }).execute();
  return id;
}

const cookiesOf = (cartId: string) =>
  ({
    get: (name: string) => (name === CART_COOKIE ? { value: cartId } : undefined),
    set: () => {},
    delete: () => {},
  }) as never;

interface Answer {
  status: number;
  retryAfter: string | null;
  code: string | undefined;
}

async function answer(response: Response): Promise<Answer> {
  const body = (await response.json()) as { error?: { code: string } };
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    code: body.error?.code,
  };
}

function applyCode(code: string, cartId: string, ip: string): Promise<Answer> {
  return callEndpoint(APPLY_PROMO, {
    request: new Request(`${ORIGIN}/api/cart/promo`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    }),
    clientAddress: ip,
    cookies: cookiesOf(cartId),
  }).then(answer);
}

async function removeCode(cartId: string, ip: string): Promise<void> {
  const response = await callEndpoint(REMOVE_PROMO, {
    request: new Request(`${ORIGIN}/api/cart/promo`, {
      method: 'DELETE',
      headers: { origin: ORIGIN },
    }),
    clientAddress: ip,
    cookies: cookiesOf(cartId),
  });
  expect(response.status).toBe(200);
}

function checkoutWith(code: string, cartId: string, ip: string): Promise<Answer> {
  return callEndpoint(CHECKOUT, {
    request: new Request(`${ORIGIN}/api/checkout`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...checkoutRequest([{ artworkId: 1, quantity: 1 }]),
        promoCode: code,
      }),
    }),
    clientAddress: ip,
    cookies: cookiesOf(cartId),
  }).then(answer);
}

const refused = (a: Answer) =>
  a.status === 429 && a.code === 'rate_limited' && Number(a.retryAfter) > 0;

beforeAll(async () => {
  t = await createTestDatabase();
  provideDatabase(t);
  // A wrong code is refused before anything is paid for: payments need only say they are ready.
  providePayments({ ready: true } as Payments);
});
afterAll(() => t?.dispose());

describe('promo codes: guessing', () => {
  it('a cart gets its allowance of wrong codes; then every code, the right one too, is a 429', async () => {
    const cart = await newCart();
    const ip = newAddress();
    for (let i = 0; i < PROMO_ATTEMPT_LIMITS.perCart.limit; i++)
      expect(await applyCode(`GUESS${i}`, cart, ip)).toMatchObject({
        status: 400,
        code: 'promo_invalid',
      });
    expect(refused(await applyCode('GUESSX', cart, ip))).toBe(true);
    expect(refused(await applyCode(RIGHT, cart, ip))).toBe(true);
    // Another cart from the same network still has its own allowance.
    expect(await applyCode(RIGHT, await newCart(), ip)).toMatchObject({ status: 200 });
  });

  it('right codes cost nothing', async () => {
    const cart = await newCart();
    const ip = newAddress();
    for (let i = 0; i < PROMO_ATTEMPT_LIMITS.perCart.limit + 5; i++) {
      expect((await applyCode(RIGHT, cart, ip)).status).toBe(200);
      await removeCode(cart, ip);
    }
    expect(await applyCode('GUESS', cart, ip)).toMatchObject({
      status: 400,
      code: 'promo_invalid',
    });
  });

  it('a burst at once gets no more than the allowance', { tags: ['concurrency'] }, async () => {
    const cart = await newCart();
    const ip = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => applyCode(`BURST${i}`, cart, ip)),
    );
    expect(answers.filter((a) => a.code === 'promo_invalid')).toHaveLength(
      PROMO_ATTEMPT_LIMITS.perCart.limit,
    );
    expect(answers.filter(refused)).toHaveLength(40 - PROMO_ATTEMPT_LIMITS.perCart.limit);
  });

  it('a network gets its allowance across carts', async () => {
    const ip = newAddress();
    const { perAddress, perCart } = PROMO_ATTEMPT_LIMITS;
    for (let guessed = 0; guessed < perAddress.limit;) {
      const cart = await newCart();
      for (let i = 0; i < perCart.limit && guessed < perAddress.limit; i++, guessed++)
        expect((await applyCode(`NET${guessed}`, cart, ip)).code).toBe('promo_invalid');
    }
    expect(refused(await applyCode(RIGHT, await newCart(), ip))).toBe(true);
    // An IPv6 client is counted by its /64: another address of it is the same client.
    const v6 = '2001:db8:7:1::';
    for (let guessed = 0; guessed < perAddress.limit;) {
      const cart = await newCart();
      for (let i = 0; i < perCart.limit && guessed < perAddress.limit; i++, guessed++)
        await applyCode(`SIX${guessed}`, cart, `${v6}${(guessed + 1).toString(16)}`);
    }
    expect(refused(await applyCode(RIGHT, await newCart(), `${v6}ffff`))).toBe(true);
  });

  it('checkout’s promoCode draws on the same allowance: no second oracle', async () => {
    const cart = await newCart();
    const ip = newAddress();
    const half = PROMO_ATTEMPT_LIMITS.perCart.limit / 2;
    for (let i = 0; i < half; i++)
      expect(await checkoutWith(`VIA${i}`, cart, ip)).toMatchObject({
        status: 400,
        code: 'promo_invalid',
      });
    for (let i = 0; i < half; i++)
      expect((await applyCode(`CART${i}`, cart, ip)).code).toBe('promo_invalid');
    expect(refused(await checkoutWith(RIGHT, cart, ip))).toBe(true);
    expect(refused(await applyCode(RIGHT, cart, ip))).toBe(true);
  });
});
