// The checkout form's starting values for a signed-in customer (issue 25 §9; docs/decisions/044):
// the account's name and email, and the shipping address of the last order placed while signed in
// to this account. Only orders carrying the account's id count — not the guest orders the account
// page also shows once the address is verified: anyone may start a guest checkout with any email,
// and an address they typed must never become this customer's delivery address.
import type { Executor } from '../db/index.ts';
import {
  shippingAddressSchema,
  type CheckoutPrefill,
  type ShippingAddress,
} from '../../src/schemas/checkout.ts';

export async function checkoutPrefill(
  db: Executor,
  user: { id: string },
): Promise<CheckoutPrefill | null> {
  const account = await db
    .selectFrom('users')
    .select(['email', 'full_name'])
    .where('id', '=', user.id)
    .executeTakeFirst();
  if (!account) return null;
  const last = await db
    .selectFrom('orders')
    .select(['customer_name', 'shipping_address'])
    .where('user_id', '=', user.id)
    .where('erased_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('order_number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    name: account.full_name?.trim() || last?.customer_name || '',
    email: account.email,
    shippingAddress: last ? storedAddress(last.shipping_address) : null,
  };
}

/** The stored JSON as the form's address, or null when it no longer passes the form's rules. */
function storedAddress(value: unknown): ShippingAddress | null {
  let data = value;
  try {
    if (typeof value === 'string') data = JSON.parse(value) as unknown;
  } catch {
    return null;
  }
  const parsed = shippingAddressSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}
