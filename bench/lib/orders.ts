// Bench data for the analytics (issue 12): `count` orders spread over the last two years — about
// 80 % sales, the rest refunded, cancelled or abandoned — one line each over the catalogue's works,
// 5 000 customer emails, customer accounts, and two years of private visit counts. Written in SQL
// (generate_series), so 100 000 orders take seconds, not minutes.
import { sql } from 'kysely';
import type { Database } from '#api/db/index.ts';

export async function benchOrders(db: Database, count: number): Promise<void> {
  await sql`
    WITH works AS (
      SELECT array_agg(id ORDER BY id) AS ids, array_agg(artwork_type ORDER BY id) AS types,
             array_agg(title_fr ORDER BY id) AS titles, array_agg(price_cents ORDER BY id) AS prices,
             count(*)::int AS n
      FROM artworks
    ), made AS (
      INSERT INTO orders (order_number, customer_email, customer_name, shipping_address,
                          subtotal_cents, discount_cents, shipping_cents, total_cents, currency,
                          payment_status, status, paid_at, created_at, stripe_session_id)
      SELECT 'BENCH-' || g, 'buyer' || (g % 5000) || '@bench.test', 'Acheteur ' || g, '{}'::jsonb,
             w.prices[1 + g % w.n], 0, 1500, w.prices[1 + g % w.n] + 1500, 'EUR',
             CASE WHEN g % 10 = 0 THEN 'refunded' WHEN g % 10 = 1 THEN 'expired' ELSE 'paid' END,
             CASE WHEN g % 10 = 0 OR g % 17 = 0 THEN 'cancelled' ELSE 'delivered' END,
             CASE WHEN g % 10 = 1 THEN NULL
                  ELSE now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second' END,
             now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second',
             'cs_bench_' || g
      FROM generate_series(1, ${count}::int) AS g, works w
      RETURNING id, order_number
    )
    INSERT INTO order_items (order_id, artwork_id, artwork_type, title, unit_price_cents, quantity)
    SELECT m.id, w.ids[1 + k % w.n], w.types[1 + k % w.n], w.titles[1 + k % w.n],
           w.prices[1 + k % w.n], 1
    FROM made m, works w, LATERAL (SELECT substring(m.order_number FROM 7)::int AS k) x`.execute(
    db,
  );
  await sql`
    INSERT INTO users (email, full_name, role, created_at)
    SELECT 'buyer' || g || '@bench.test', 'Client ' || g, 'customer', now() - (g % 700) * interval '1 day'
    FROM generate_series(0, 2999) AS g
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO visitor_days (day, visitors)
    SELECT (current_date - g), 200 + g % 50 FROM generate_series(0, 729) AS g
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO visit_counts (day, path, visits)
    SELECT (current_date - g), p, 10 + g % 7
    FROM generate_series(0, 729) AS g, unnest(ARRAY['/', '/gallery', '/en', '/en/gallery', '/about']) AS p
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO work_views (day, work, views)
    SELECT (current_date - g), regexp_replace(a.slug, '-(original|print)$', ''), 1 + (g + a.id) % 9
    FROM generate_series(0, 729) AS g, (SELECT id, slug FROM artworks ORDER BY id LIMIT 60) a
    ON CONFLICT DO NOTHING`.execute(db);
  // As autovacuum would on a live database: the visibility map lets index-only scans skip the table.
  await sql`VACUUM ANALYZE`.execute(db);
}
