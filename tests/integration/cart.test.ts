// The cart rules of storefront §4–§5, enforced by api/cart against a real database: one original
// overall, quantity exactly 1, prints adding up to the stock, sold or hidden works refused, promo
// codes from the settings in the spec's order, and totals priced on the server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addToCart,
  applyCartPromo,
  clearCart,
  countCart,
  getCart,
  newCartId,
  removeCartPromo,
  removeLine,
  setLineQuantity,
} from '#api/cart/index.ts';
import { AppError } from '#api/http/errors.ts';
import { DEFAULT_SETTINGS, type SiteSettings } from '#api/settings/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeArtwork, makeWorkWithPrint } from '../helpers/factories.ts';

let t: TestDatabase;
let originalA: number;
let originalB: number;
let print: number;
let hidden: number;
let cart: string;
const settings: SiteSettings = DEFAULT_SETTINGS;

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  t = await createTestDatabase();
  const alpha = { title_fr: 'Alpha', title_en: 'Alpha' };
  ({ original: originalA, print } = await makeWorkWithPrint(t.db, {
    original: { ...alpha, price_cents: 410000 },
    print: { ...alpha, price_cents: 35000, stock: 3 },
  }));
  originalB = (await makeArtwork(t.db, { title_fr: 'Bêta', title_en: 'Beta', price_cents: 520000 }))
    .id;
  hidden = (
    await makeArtwork(t.db, {
      artwork_type: 'print',
      title_fr: 'Gamma',
      title_en: 'Gamma',
      price_cents: 42000,
      stock: 2,
      is_available: false,
    })
  ).id;
});
afterAll(() => t.dispose());
beforeEach(() => {
  cart = newCartId();
});

describe('originals', () => {
  it('go in alone, once, with quantity 1', async () => {
    await addToCart(t.db, cart, originalA, 1);
    expect(await refusal(addToCart(t.db, cart, originalA, 1))).toBe('original_in_cart');
    expect(await refusal(addToCart(t.db, cart, originalB, 1))).toBe('original_limit');
    const view = await getCart(t.db, cart, settings);
    expect(view.lines).toHaveLength(1);
    expect(view.lines[0]).toMatchObject({ type: 'original', quantity: 1, maxQuantity: 1 });
    expect(await refusal(setLineQuantity(t.db, cart, view.lines[0]!.id, 2))).toBe(
      'original_quantity',
    );
  });

  it('cannot be added two at a time', async () => {
    expect(await refusal(addToCart(t.db, cart, originalA, 2))).toBe('original_quantity');
    expect(await countCart(t.db, cart)).toBe(0);
  });

  it('are refused once sold, and a sold one leaves the cart with a notice', async () => {
    await addToCart(t.db, cart, originalB, 1);
    await t.db.updateTable('artworks').set({ is_sold: true }).where('id', '=', originalB).execute();
    try {
      const view = await getCart(t.db, cart, settings);
      expect(view.lines).toEqual([]);
      expect(view.removed).toEqual([{ fr: 'Bêta', en: 'Beta' }]);
      expect((await getCart(t.db, cart, settings)).removed).toEqual([]);
      expect(await refusal(addToCart(t.db, newCartId(), originalB, 1))).toBe('unavailable');
    } finally {
      await t.db
        .updateTable('artworks')
        .set({ is_sold: false })
        .where('id', '=', originalB)
        .execute();
    }
  });
});

describe('prints', () => {
  it('add up to the stock, never beyond', async () => {
    await addToCart(t.db, cart, print, 1);
    await addToCart(t.db, cart, print, 2);
    const view = await getCart(t.db, cart, settings);
    expect(view.lines).toHaveLength(1);
    expect(view.lines[0]).toMatchObject({ quantity: 3, maxQuantity: 3, lineTotalCents: 105000 });
    expect(await refusal(addToCart(t.db, cart, print, 1))).toBe('out_of_stock');
    expect(await refusal(setLineQuantity(t.db, cart, view.lines[0]!.id, 4))).toBe('out_of_stock');
  });

  it('sit beside one original', async () => {
    await addToCart(t.db, cart, originalA, 1);
    await addToCart(t.db, cart, print, 2);
    expect(await countCart(t.db, cart)).toBe(3);
  });

  it('leave the cart at quantity 0 or less, and on remove', async () => {
    await addToCart(t.db, cart, print, 2);
    let view = await getCart(t.db, cart, settings);
    await setLineQuantity(t.db, cart, view.lines[0]!.id, 1);
    view = await getCart(t.db, cart, settings);
    expect(view.lines[0]!.quantity).toBe(1);
    await setLineQuantity(t.db, cart, view.lines[0]!.id, 0);
    expect((await getCart(t.db, cart, settings)).lines).toEqual([]);
    await addToCart(t.db, cart, print, 1);
    view = await getCart(t.db, cart, settings);
    await removeLine(t.db, cart, view.lines[0]!.id);
    expect(await countCart(t.db, cart)).toBe(0);
    expect(await refusal(removeLine(t.db, cart, view.lines[0]!.id))).toBe('not_found');
  });

  it('of a hidden work are refused; unknown works are not found', async () => {
    expect(await refusal(addToCart(t.db, cart, hidden, 1))).toBe('unavailable');
    expect(await refusal(addToCart(t.db, cart, 999_999, 1))).toBe('not_found');
  });

  it('out of stock are refused and drop out of carts', async () => {
    await addToCart(t.db, cart, print, 1);
    await t.db.updateTable('artworks').set({ stock: 0 }).where('id', '=', print).execute();
    try {
      expect(await refusal(addToCart(t.db, newCartId(), print, 1))).toBe('out_of_stock');
      expect((await getCart(t.db, cart, settings)).lines).toEqual([]);
    } finally {
      await t.db.updateTable('artworks').set({ stock: 3 }).where('id', '=', print).execute();
    }
  });
});

describe('a cart line belongs to its cart', () => {
  it('cannot be changed or removed from another cart', async () => {
    await addToCart(t.db, cart, print, 1);
    const line = (await getCart(t.db, cart, settings)).lines[0]!;
    const other = newCartId();
    expect(await refusal(setLineQuantity(t.db, other, line.id, 2))).toBe('not_found');
    expect(await refusal(removeLine(t.db, other, line.id))).toBe('not_found');
    expect(await countCart(t.db, cart)).toBe(1);
  });
});

describe('promo codes and totals', () => {
  it('price the cart on the server with the settings’ codes and shipping', async () => {
    await addToCart(t.db, cart, print, 1);
    let view = await getCart(t.db, cart, settings);
    expect(view.totals).toEqual({
      subtotalCents: 35000,
      discountCents: 0,
      shippingCents: 1500,
      totalCents: 36500,
    });
    expect(await refusal(applyCartPromo(t.db, cart, '  ', settings))).toBe('promo_empty');
    expect(await refusal(applyCartPromo(t.db, cart, 'NOPE', settings))).toBe('promo_invalid');
    await applyCartPromo(t.db, cart, 'sasha25', settings);
    expect(await refusal(applyCartPromo(t.db, cart, '', settings))).toBe('promo_already_applied');
    expect(await refusal(applyCartPromo(t.db, cart, 'ART20', settings))).toBe(
      'promo_already_applied',
    );
    view = await getCart(t.db, cart, settings);
    expect(view.promo).toEqual({ code: 'SASHA25', percent: 15 });
    expect(view.totals).toEqual({
      subtotalCents: 35000,
      discountCents: 5250,
      shippingCents: 1500,
      totalCents: 31250,
    });
    await setLineQuantity(t.db, cart, view.lines[0]!.id, 2);
    view = await getCart(t.db, cart, settings);
    // 700 € − 15 % = 595 € ≥ 500 €: shipping is free.
    expect(view.totals).toEqual({
      subtotalCents: 70000,
      discountCents: 10500,
      shippingCents: 0,
      totalCents: 59500,
    });
    await removeCartPromo(t.db, cart);
    expect((await getCart(t.db, cart, settings)).promo).toBeNull();
  });

  it('drop a code the owner has deactivated since', async () => {
    await addToCart(t.db, cart, print, 1);
    await applyCartPromo(t.db, cart, 'WELCOME10', settings);
    const changed: SiteSettings = {
      ...settings,
      promo_codes: settings.promo_codes.map((p) =>
        p.code === 'WELCOME10' ? { ...p, active: false } : p,
      ),
    };
    expect((await getCart(t.db, cart, changed)).promo).toBeNull();
    expect(await refusal(applyCartPromo(t.db, newCartId(), 'WELCOME10', changed))).toBe(
      'promo_invalid',
    );
  });

  it('are cleared with the cart', async () => {
    await addToCart(t.db, cart, print, 1);
    await applyCartPromo(t.db, cart, 'ART20', settings);
    await clearCart(t.db, cart);
    const view = await getCart(t.db, cart, settings);
    expect(view).toMatchObject({ lines: [], count: 0, promo: null });
    expect(view.totals.totalCents).toBe(0);
  });
});

describe('concurrent adds to one cart', { tags: ['concurrency'] }, () => {
  it('still let only one original in', async () => {
    const results = await Promise.allSettled([
      addToCart(t.db, cart, originalA, 1),
      addToCart(t.db, cart, originalB, 1),
      addToCart(t.db, cart, originalA, 1),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await countCart(t.db, cart)).toBe(1);
  });
});

// Issue 14 §2: an add is one statement with no lock on the cart row; the database keeps the rules
// when several tabs add at once (on PostgreSQL these really run concurrently).
describe('adding in one statement', { tags: ['pg-driver'] }, () => {
  it('answers with the cart exactly as a fresh read sees it', async () => {
    await addToCart(t.db, cart, originalA, 1);
    await applyCartPromo(t.db, cart, 'SASHA25', settings);
    const first = await addToCart(t.db, cart, print, 1);
    expect(await getCart(t.db, cart, settings, first)).toEqual(await getCart(t.db, cart, settings));
    const again = await addToCart(t.db, cart, print, 1);
    const view = await getCart(t.db, cart, settings, again);
    expect(view).toEqual(await getCart(t.db, cart, settings));
    expect(view.lines.map((l) => [l.artworkId, l.quantity])).toEqual([
      [originalA, 1],
      [print, 2],
    ]);
    expect(view.promo?.code).toBe('SASHA25');
  });

  it(
    'keeps one original per cart when two tabs add two originals at once',
    { tags: ['concurrency'] },
    async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          addToCart(t.db, cart, i % 2 ? originalA : originalB, 1),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected')
          expect(['original_limit', 'original_in_cart']).toContain((r.reason as AppError).code);
      const view = await getCart(t.db, cart, settings);
      expect(view.lines).toHaveLength(1);
      expect(view.lines[0]!.quantity).toBe(1);
    },
  );

  it('is kept by the database itself: a second original line is refused', async () => {
    await addToCart(t.db, cart, originalA, 1);
    await expect(
      t.db
        .insertInto('cart_items')
        .values({ cart_id: cart, artwork_id: originalB, quantity: 1, is_original: true })
        .execute(),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('never adds more prints than are left when adds race', { tags: ['concurrency'] }, async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => addToCart(t.db, cart, print, 1)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as AppError).code).toBe('out_of_stock');
    expect((await getCart(t.db, cart, settings)).lines[0]!.quantity).toBe(3);
  });

  it('leaves no trace of a refused add', async () => {
    await addToCart(t.db, newCartId(), originalB, 1).catch(() => {});
    const before = await t.db
      .selectFrom('carts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    for (const [work, quantity] of [
      [hidden, 1],
      [999_999, 1],
      [print, 4],
      [originalA, 2],
    ] as const)
      await expect(addToCart(t.db, cart, work, quantity)).rejects.toBeInstanceOf(AppError);
    const after = await t.db
      .selectFrom('carts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toEqual(before.n);
    expect(await countCart(t.db, cart)).toBe(0);
  });
});
