// Collections for the prerendered pages. Artworks and site settings come from the database at
// build time: through the JSON snapshot the server hands to `astro build` (PGlite belongs to the
// server process), or, under `astro dev`, from the database itself, prepared as `npm start` does.
import { watch } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { catalogSnapshot, type CatalogSnapshot } from '#api/build/index.ts';
import { publicArtworkSchema } from '#api/catalog/index.ts';
import { prepareDatabase } from '#api/catalog/seed.ts';
import { loadConfig } from '#api/config.ts';
import { getDb } from '#api/db/context.ts';
import { DEFAULT_SETTINGS, settingsSchema } from '#api/settings/index.ts';

let snapshot: Promise<CatalogSnapshot> | undefined;

/**
 * The snapshot file's text, once the server has written it: a first start, and a build started
 * ahead of the next publish (api/build/standby.ts), begin the build before the catalogue is known
 * (api/build/index.ts `startBuild`), and this is where the build waits — as long as the owner
 * takes to make a change. Bounded by the server that started it: the build stops once it is gone.
 */
async function whenWritten(file: string): Promise<string> {
  const parent = process.ppid;
  // Woken when the file is named (the server writes it whole, then renames it), so that a build
  // waiting for minutes costs nothing meanwhile; once a second regardless, to notice its server
  // gone (or a file system that does not report the rename).
  let wake = () => {};
  const seen = { named: false };
  const watcher = watch(path.dirname(file), (_event, name) => {
    if (name !== path.basename(file)) return;
    seen.named = true;
    wake();
  });
  try {
    for (;;) {
      seen.named = false;
      try {
        return await fs.readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      if (process.ppid !== parent)
        throw new Error(`The catalogue snapshot ${file} was never written`);
      // Named while it was being read: read again at once.
      if (seen.named) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    watcher.close();
  }
}

function loadSnapshot(): Promise<CatalogSnapshot> {
  snapshot ??= (async () => {
    const file = process.env['GALERIE_CATALOG_SNAPSHOT'];
    // `astro check` only needs the collections' types: it never opens the database.
    if (file === 'defaults') return { artworks: [], settings: DEFAULT_SETTINGS };
    if (file) return JSON.parse(await whenWritten(file)) as CatalogSnapshot;
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

// Editorial texts per locale (content/fr, content/en); ids are 'fr/home', 'en/about', …
const home = defineCollection({
  loader: glob({ pattern: '*/home.md', base: './content' }),
  schema: z.object({
    title: z.string(),
    description: z.string(),
    heroEyebrow: z.string(),
    heroTitle: z.string(),
    heroText: z.string(),
    heroCta: z.string(),
    visionTitle: z.string(),
    visionText: z.string(),
    visionCta: z.string(),
    featuredTitle: z.string(),
    featuredText: z.string(),
    featuredCta: z.string(),
    teaserTitle: z.string(),
    teaserText: z.string(),
    teaserCta: z.string(),
  }),
});

const about = defineCollection({
  loader: glob({ pattern: '*/about.md', base: './content' }),
  schema: z.object({
    title: z.string(),
    description: z.string(),
    intro: z.string(),
    styleTitle: z.string(),
    styleCards: z.array(z.object({ title: z.string(), text: z.string() })).length(3),
    quote: z.string(),
    quoteAuthor: z.string(),
    contactTitle: z.string(),
    contactText: z.string(),
    contactCta: z.string(),
    instagramCta: z.string(),
  }),
});

const legal = defineCollection({
  loader: glob({ pattern: '*/{privacy,terms}.md', base: './content' }),
  schema: z.object({ title: z.string(), description: z.string(), updated: z.coerce.date() }),
});

export const collections = { artworks, site, home, about, legal };
