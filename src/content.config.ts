// Collections for the prerendered pages. Artworks and site settings come from the database at
// build time: through the JSON snapshot the server hands to `astro build` (PGlite belongs to the
// server process), or, under `astro dev`, from the database itself, prepared as `npm start` does.
import fs from 'node:fs/promises';
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { catalogSnapshot, type CatalogSnapshot } from '../api/build/index.ts';
import { publicArtworkSchema } from '../api/catalog/index.ts';
import { prepareDatabase } from '../api/catalog/seed.ts';
import { loadConfig } from '../api/config.ts';
import { getDb } from '../api/db/context.ts';
import { DEFAULT_SETTINGS, settingsSchema } from '../api/settings/index.ts';

let snapshot: Promise<CatalogSnapshot> | undefined;

function loadSnapshot(): Promise<CatalogSnapshot> {
  snapshot ??= (async () => {
    const file = process.env['GALERIE_CATALOG_SNAPSHOT'];
    // `astro check` only needs the collections' types: it never opens the database.
    if (file === 'defaults') return { artworks: [], settings: DEFAULT_SETTINGS };
    if (file) return JSON.parse(await fs.readFile(file, 'utf8')) as CatalogSnapshot;
    const db = await getDb();
    await prepareDatabase(db, loadConfig());
    return catalogSnapshot(db);
  })();
  return snapshot;
}

const artworks = defineCollection({
  loader: async () =>
    (await loadSnapshot()).artworks.map((artwork, position) => ({
      ...artwork,
      id: String(artwork.id),
      position,
    })),
  // `position` keeps the database order (display_order, then newest first) through the store.
  schema: publicArtworkSchema.extend({ id: z.coerce.number().int(), position: z.number().int() }),
});

const site = defineCollection({
  loader: async () => [{ id: 'settings', ...(await loadSnapshot()).settings }],
  schema: settingsSchema,
});

export const collections = { artworks, site };
