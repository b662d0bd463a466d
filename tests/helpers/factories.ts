// Test data through factories (issue 10): one kitchen-sink row per entity, every column filled
// with something plausible, and a test names only what it is about. Each call makes a new row
// with unique keys.
import type { Insertable } from 'kysely';
import { createSession } from '#api/accounts/sessions.ts';
import type { Executor } from '#api/db/index.ts';
import type { Artworks, Users } from '#api/db/schema.ts';

let sequence = 0;
const next = () => `${Date.now().toString(36)}-${++sequence}`;

export type ArtworkRow = Insertable<Artworks>;

/** A visible, unsold work with every field set; an original unless `artwork_type` says print. */
export async function makeArtwork(
  db: Executor,
  overrides: Partial<ArtworkRow> = {},
): Promise<{ id: number; slug: string }> {
  const type = overrides.artwork_type ?? 'original';
  const key = next();
  const row: ArtworkRow = {
    slug: `oeuvre-${key}-${type}`,
    artwork_type: type,
    title_fr: `Œuvre ${key}`,
    title_en: `Work ${key}`,
    description_fr: 'Une huile lumineuse sur le Tage.',
    description_en: 'A luminous oil on the Tagus.',
    technique_fr: type === 'print' ? 'Tirage giclée' : 'Huile sur toile',
    technique_en: type === 'print' ? 'Giclée print' : 'Oil on canvas',
    dimensions: type === 'print' ? '50 x 40 cm' : '100 x 80 cm',
    year: 2025,
    price_cents: type === 'print' ? 35_000 : 410_000,
    stock: type === 'print' ? 10 : 1,
    category: 'peinture',
    collection: 'moderna',
    is_available: true,
    is_sold: false,
    display_order: 0,
    edition_size: type === 'print' ? 50 : null,
    ...overrides,
  };
  return db.insertInto('artworks').values(row).returning(['id', 'slug']).executeTakeFirstOrThrow();
}

/** An original and a print of it (linked by original_id), as the back office creates them. */
export async function makeWorkWithPrint(
  db: Executor,
  overrides: { original?: Partial<ArtworkRow>; print?: Partial<ArtworkRow> } = {},
): Promise<{ original: number; print: number }> {
  const original = await makeArtwork(db, overrides.original);
  const print = await makeArtwork(db, {
    artwork_type: 'print',
    original_id: original.id,
    ...overrides.print,
  });
  return { original: original.id, print: print.id };
}

export type UserRow = Insertable<Users>;

/** A verified customer (or `role: 'admin'`) with a live session: its cookie for requests. */
export async function makeUser(
  db: Executor,
  overrides: Partial<UserRow> = {},
): Promise<{ id: string; email: string; cookie: string; secureCookie: string; token: string }> {
  const key = next();
  const user = await db
    .insertInto('users')
    .values({
      email: `person-${key}@example.test`,
      full_name: `Personne ${key}`,
      role: 'customer',
      email_verified_at: new Date(),
      ...overrides,
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  const { token } = await createSession(db, user.id);
  // The Cookie header on plain http (`cookie`) and on an https:// site such as the golden shop
  // (`secureCookie`): the server reads the one name its transport allows (docs/decisions/038).
  return {
    ...user,
    token,
    cookie: `session=${token}`,
    secureCookie: `__Host-session=${token}`,
  };
}

export interface OrderLine {
  artworkId: number | null;
  type: 'original' | 'print';
  title?: string;
  unitPriceCents: number;
  quantity?: number;
}

/**
 * An order with its lines, as the webhook leaves it once paid: totals from the lines, a discount
 * and shipping as given. `paidAt` null (or a payment status other than paid) makes an unpaid,
 * expired or refunded one.
 */
export async function makeOrder(
  db: Executor,
  options: {
    lines: OrderLine[];
    email?: string;
    paidAt?: Date | null;
    createdAt?: Date;
    payment?: string;
    status?: string;
    discountCents?: number;
    shippingCents?: number;
    currency?: string;
  },
): Promise<{ id: string; orderNumber: string; totalCents: number; sessionId: string }> {
  const key = next();
  const subtotal = options.lines.reduce((s, l) => s + l.unitPriceCents * (l.quantity ?? 1), 0);
  const discount = options.discountCents ?? 0;
  const shipping = options.shippingCents ?? 0;
  const paidAt = options.paidAt === undefined ? new Date() : options.paidAt;
  const order = await db
    .insertInto('orders')
    .values({
      order_number: `GAL-${key}`.toUpperCase(),
      customer_email: options.email ?? `buyer-${key}@example.test`,
      customer_name: `Acheteur ${key}`,
      shipping_address: JSON.stringify({
        street: '1 rue de la Paix',
        postal_code: '75002',
        city: 'Paris',
        country: 'FR',
      }),
      subtotal_cents: subtotal,
      discount_cents: discount,
      shipping_cents: shipping,
      total_cents: subtotal - discount + shipping,
      currency: options.currency ?? 'EUR',
      payment_status: options.payment ?? (paidAt ? 'paid' : 'unpaid'),
      status: options.status ?? (paidAt ? 'confirmed' : 'pending'),
      paid_at: paidAt,
      created_at: options.createdAt ?? paidAt ?? new Date(),
      stripe_session_id: `cs_test_${key}`,
    })
    .returning(['id', 'order_number', 'total_cents'])
    .executeTakeFirstOrThrow();
  await db
    .insertInto('order_items')
    .values(
      options.lines.map((l) => ({
        order_id: order.id,
        artwork_id: l.artworkId,
        artwork_type: l.type,
        title: l.title ?? `Œuvre ${l.artworkId ?? 'supprimée'}`,
        unit_price_cents: l.unitPriceCents,
        quantity: l.quantity ?? 1,
      })),
    )
    .execute();
  return {
    id: order.id,
    orderNumber: order.order_number,
    totalCents: order.total_cents,
    sessionId: `cs_test_${key}`,
  };
}
