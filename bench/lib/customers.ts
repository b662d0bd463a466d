// Bench data for the customers list (issue 13): `count` customer accounts written in one SQL
// statement (generate_series), so 20 000 take a second. Their emails are the buyers' of
// bench/lib/orders.ts ('buyer<n>@bench.test', n < 5 000 there), so after both the shop has
// max(count, 5 000) customers, a quarter of 20 000 with orders; every seventh address is typed in
// capitals (the list must fold them into one customer), every thirteenth account has no name, a
// quarter never signed in, and names carry accents for the search. Either order of the two calls
// works: an address already taken is skipped.
import { sql } from 'kysely';
import type { Database } from '#api/db/index.ts';

const FIRST = ['Hélène', 'Émile', 'Zoé', 'Jérôme', 'Anaïs', 'Loïc', 'Maëlle', 'François', 'Inès'];
const LAST = ['Dupré', 'Lefèvre', 'Müller', 'Kovač', 'Nuñez', 'Garçon', 'Ørsted', 'Martin'];

export async function benchCustomers(db: Database, count: number): Promise<void> {
  await sql`
    INSERT INTO users (email, full_name, role, created_at, last_sign_in_at, email_verified_at)
    SELECT CASE WHEN g % 7 = 3 THEN 'Buyer' || g || '@Bench.test' ELSE 'buyer' || g || '@bench.test' END,
           CASE WHEN g % 13 = 5 THEN NULL
                ELSE (${FIRST}::text[])[1 + g % ${FIRST.length}] || ' '
                     || (${LAST}::text[])[1 + (g / 9) % ${LAST.length}] || ' ' || g END,
           'customer',
           now() - (g % 1100) * interval '1 day' - (g % 3600) * interval '1 second',
           CASE WHEN g % 4 = 0 THEN NULL
                ELSE now() - (g % 90) * interval '1 day' - (g % 7200) * interval '1 second' END,
           now() - (g % 1100) * interval '1 day'
    FROM generate_series(0, ${count - 1}::int) AS g
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`ANALYZE users`.execute(db);
}
