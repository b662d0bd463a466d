// A database for the benches: the demo catalogue grown to any number of works (the demo's works
// repeated under new slugs and titles, sharing their images) and an administrator's session.
import { createSession } from '#api/accounts/sessions.ts';
import { prepareDatabase } from '#api/catalog/seed.ts';
import type { DatabaseHandle } from '#api/db/index.ts';

/** Seeds `handle`, grows it to `works` works; returns the owner's session cookie. */
export async function benchCatalogue(
  handle: DatabaseHandle,
  dataDir: string,
  works: number,
): Promise<string> {
  await prepareDatabase(handle.db, { dataDir });
  const demo = await handle.db.selectFrom('artworks').selectAll().orderBy('id').execute();
  for (let copy = 1; demo.length * copy < works; copy++) {
    const rows = demo
      .slice(0, Math.min(demo.length, works - demo.length * copy))
      // Ids, links, stamps, the version and the generated search text are the database's own.
      .map(
        ({
          id: _i,
          original_id: _o,
          created_at: _c,
          updated_at: _u,
          version: _v,
          search_folded: _s,
          ...row
        }) => ({
          ...row,
          slug: `${row.slug}-${copy}`,
          title_fr: `${row.title_fr} ${copy}`,
          title_en: `${row.title_en} ${copy}`,
        }),
      );
    await handle.db.insertInto('artworks').values(rows).execute();
  }
  const owner = await handle.db
    .insertInto('users')
    .values({ email: 'owner@bench.test', full_name: 'Owner', role: 'admin' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return `session=${(await createSession(handle.db, owner.id)).token}`;
}
