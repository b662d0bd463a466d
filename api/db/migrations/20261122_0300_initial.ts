// The whole data model of both spec documents (storefront §3, back office §3), so later work only
// adds columns. Frozen: never edit after it has run anywhere; add a new migration instead.
// Money is integer cents; constraints guard stock, prices and uniqueness, not application code.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

const now = sql`now()`;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('sha256', 'text', (c) => c.notNull().unique())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull().check(sql`width > 0`))
    .addColumn('height', 'integer', (c) => c.notNull().check(sql`height > 0`))
    .addColumn('byte_size', 'integer', (c) => c.notNull().check(sql`byte_size > 0`))
    .addColumn('alt_fr', 'text')
    .addColumn('alt_en', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('artworks')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('slug', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    )
    .addColumn('title_fr', 'text', (c) => c.notNull().check(sql`length(trim(title_fr)) > 0`))
    .addColumn('title_en', 'text', (c) => c.notNull().check(sql`length(trim(title_en)) > 0`))
    .addColumn('description_fr', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('technique_fr', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('technique_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('dimensions', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.check(sql`year BETWEEN 1900 AND 2200`))
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents > 0`))
    .addColumn('stock', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`stock >= 0`),
    )
    .addColumn('category', 'text', (c) =>
      c
        .notNull()
        .defaultTo('peinture')
        .check(sql`category IN ('peinture', 'sculpture', 'mixte')`),
    )
    .addColumn('collection', 'text', (c) => c.notNull().defaultTo('moderna'))
    .addColumn('artwork_type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('print')
        .check(sql`artwork_type IN ('original', 'print')`),
    )
    .addColumn('is_available', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_sold', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('display_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('media_id', 'uuid', (c) => c.references('media.id').onDelete('set null'))
    .addColumn('edition_size', 'integer', (c) => c.check(sql`edition_size > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    // spec back office §3: is_sold concerns originals only; an original is one piece.
    .addCheckConstraint(
      'artworks_sold_only_originals',
      sql`artwork_type = 'original' OR NOT is_sold`,
    )
    .addCheckConstraint('artworks_original_single_piece', sql`artwork_type = 'print' OR stock <= 1`)
    .execute();
  await db.schema
    .createIndex('artworks_display_order_idx')
    .on('artworks')
    .columns(['display_order', 'created_at desc'])
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) =>
      c.notNull().check(sql`email = trim(email) AND email LIKE '%_@_%'`),
    )
    .addColumn('full_name', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('customer')
        .check(sql`role IN ('customer', 'admin')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('last_sign_in_at', 'timestamptz')
    .execute();
  await sql`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'bytea', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  // Login throttling per account and per IP (key such as 'email:a@b.c' or 'ip:203.0.113.9').
  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`failures >= 0`),
    )
    .addColumn('last_failure_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('locked_until', 'timestamptz')
    .execute();

  // Fixed-window counters for other rate limits (contact form per address, …).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`hits >= 0`),
    )
    .addPrimaryKeyConstraint('rate_limits_pkey', ['key', 'window_start'])
    .execute();

  await db.schema
    .createTable('admin_invitations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  // spec storefront §3: the customer's subscription record (price_id, subscription_status).
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('customer_email', 'text', (c) => c.notNull())
    .addColumn('stripe_subscription_id', 'text', (c) => c.unique())
    .addColumn('price_id', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`status IN ('active', 'trialing', 'canceled', 'past_due', 'incomplete', 'incomplete_expired', 'unpaid', 'paused')`,
        ),
    )
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`CREATE INDEX subscriptions_email_idx ON subscriptions (lower(customer_email))`.execute(
    db,
  );

  // One table for every order (back office §3 "standard" and "card-payment" orders alike).
  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_number', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('cart_id', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status IN ('pending', 'confirmed', 'shipped', 'delivered', 'cancelled')`),
    )
    .addColumn('payment_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('unpaid')
        .check(sql`payment_status IN ('unpaid', 'paid', 'expired', 'refunded', 'failed')`),
    )
    .addColumn('payment_method', 'text', (c) =>
      c
        .notNull()
        .defaultTo('card')
        .check(sql`payment_method IN ('card', 'bank_transfer', 'manual')`),
    )
    .addColumn('stripe_session_id', 'text', (c) => c.unique())
    .addColumn('stripe_payment_intent_id', 'text')
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('customer_email', 'text', (c) => c.notNull())
    .addColumn('customer_phone', 'text')
    .addColumn('shipping_address', 'jsonb', (c) => c.notNull())
    .addColumn('billing_address', 'jsonb')
    .addColumn('locale', 'text', (c) =>
      c
        .notNull()
        .defaultTo('fr')
        .check(sql`locale IN ('fr', 'en')`),
    )
    .addColumn('currency', 'text', (c) =>
      c
        .notNull()
        .defaultTo('EUR')
        .check(sql`currency ~ '^[A-Z]{3}$'`),
    )
    .addColumn('subtotal_cents', 'integer', (c) => c.notNull().check(sql`subtotal_cents > 0`))
    .addColumn('promo_code', 'text')
    .addColumn('discount_cents', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`discount_cents >= 0`),
    )
    .addColumn('shipping_cents', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`shipping_cents >= 0`),
    )
    .addColumn('total_cents', 'integer', (c) => c.notNull().check(sql`total_cents > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('paid_at', 'timestamptz')
    .addCheckConstraint('orders_discount_within_subtotal', sql`discount_cents <= subtotal_cents`)
    .addCheckConstraint(
      'orders_total_adds_up',
      sql`total_cents = subtotal_cents - discount_cents + shipping_cents`,
    )
    .execute();
  await sql`CREATE INDEX orders_customer_email_idx ON orders (lower(customer_email), created_at DESC)`.execute(
    db,
  );
  await db.schema.createIndex('orders_created_at_idx').on('orders').column('created_at').execute();

  await db.schema
    .createTable('order_items')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('artwork_id', 'integer', (c) => c.references('artworks.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('artwork_type', 'text', (c) =>
      c.notNull().check(sql`artwork_type IN ('original', 'print')`),
    )
    .addColumn('unit_price_cents', 'integer', (c) => c.notNull().check(sql`unit_price_cents > 0`))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addCheckConstraint('order_items_original_single', sql`artwork_type = 'print' OR quantity = 1`)
    .execute();
  await db.schema
    .createIndex('order_items_order_id_idx')
    .on('order_items')
    .column('order_id')
    .execute();

  // The visitor's cart, keyed by the opaque cart-session-id cookie (storefront §3 "Cart item").
  await db.schema
    .createTable('cart_items')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('cart_id', 'text', (c) => c.notNull())
    .addColumn('artwork_id', 'integer', (c) =>
      c.notNull().references('artworks.id').onDelete('cascade'),
    )
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('cart_items_cart_artwork_key', ['cart_id', 'artwork_id'])
    .execute();

  // A hold reserves a work for one open checkout: an original by at most one active hold, prints by
  // quantity (stock is decremented when the hold is taken and given back when it is released).
  await db.schema
    .createTable('holds')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('artwork_id', 'integer', (c) =>
      c.notNull().references('artworks.id').onDelete('cascade'),
    )
    .addColumn('artwork_type', 'text', (c) =>
      c.notNull().check(sql`artwork_type IN ('original', 'print')`),
    )
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('active')
        .check(sql`state IN ('active', 'converted', 'released')`),
    )
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await sql`CREATE UNIQUE INDEX holds_one_active_per_original ON holds (artwork_id) WHERE artwork_type = 'original' AND state = 'active'`.execute(
    db,
  );
  await sql`CREATE INDEX holds_active_expiry_idx ON holds (expires_at) WHERE state = 'active'`.execute(
    db,
  );

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('site_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('shipping_zones')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('countries', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('base_cost_cents', 'integer', (c) => c.notNull().check(sql`base_cost_cents >= 0`))
    .addColumn('free_threshold_cents', 'integer', (c) => c.check(sql`free_threshold_cents >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) =>
      c
        .notNull()
        .defaultTo('fr')
        .check(sql`locale IN ('fr', 'en')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('delivery_error', 'text')
    .execute();

  // Privacy-friendly visits: one counter per day and path, no visitor identifiers stored.
  await db.schema
    .createTable('visit_counts')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('visits', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`visits >= 0`),
    )
    .addPrimaryKeyConstraint('visit_counts_pkey', ['day', 'path'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'visit_counts',
    'contact_messages',
    'shipping_zones',
    'site_settings',
    'webhook_events',
    'holds',
    'cart_items',
    'order_items',
    'orders',
    'subscriptions',
    'password_reset_tokens',
    'admin_invitations',
    'rate_limits',
    'login_throttle',
    'sessions',
    'users',
    'artworks',
    'media',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
