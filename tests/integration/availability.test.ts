// Live availability: what the gallery fetches to show a work sold, out of stock or hidden since
// the last build; and the cart count behind the navigation badge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCart } from '#api/cart/index.ts';
import { listAvailability } from '#api/catalog/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeWorkWithPrint } from '../helpers/factories.ts';

let t: TestDatabase;
let original: number;
let print: number;

beforeAll(async () => {
  t = await createTestDatabase();
  ({ original, print } = await makeWorkWithPrint(t.db, { print: { stock: 3 } }));
});
afterAll(() => t.dispose());

const stateOf = async (id: number) => (await listAvailability(t.db)).find((w) => w.id === id);

describe('availability', () => {
  it('follows the database without a rebuild', async () => {
    expect(await stateOf(original)).toEqual({
      id: original,
      available: true,
      isSold: false,
      stock: 1,
    });
    await t.db
      .updateTable('artworks')
      .set({ is_sold: true, stock: 0 })
      .where('id', '=', original)
      .execute();
    expect(await stateOf(original)).toMatchObject({ isSold: true, stock: 0 });

    await t.db.updateTable('artworks').set({ stock: 0 }).where('id', '=', print).execute();
    expect(await stateOf(print)).toMatchObject({ isSold: false, stock: 0 });

    await t.db
      .updateTable('artworks')
      .set({ is_available: false })
      .where('id', '=', print)
      .execute();
    expect(await stateOf(print)).toMatchObject({ available: false });
  });
});

describe('cart count', () => {
  it('is the sum of quantities of the visitor’s lines for works still shown', async () => {
    expect(await countCart(t.db, undefined)).toBe(0);
    expect(await countCart(t.db, 'nobody')).toBe(0);
    await t.db
      .updateTable('artworks')
      .set({ is_available: true, stock: 3 })
      .where('id', '=', print)
      .execute();
    await t.db
      .insertInto('cart_items')
      .values([
        { cart_id: 'cart1cart1cart1cart1ca', artwork_id: print, quantity: 2 },
        { cart_id: 'cart1cart1cart1cart1ca', artwork_id: original, quantity: 1 },
        { cart_id: 'cart-2', artwork_id: print, quantity: 1 },
      ])
      .execute();
    expect(await countCart(t.db, 'cart1cart1cart1cart1ca')).toBe(3);
    await t.db
      .updateTable('artworks')
      .set({ is_available: false })
      .where('id', '=', original)
      .execute();
    expect(await countCart(t.db, 'cart1cart1cart1cart1ca')).toBe(2);
  });
});
