// The demo catalogue (content/seed/catalogue.json): 13 titles, 25 works, images rendered
// deterministically with sharp, and the default site settings. Idempotent: a work whose slug
// exists is left as the owner edited it, and settings already stored are kept.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { AppConfig } from '../config.ts';
import type { Database, Executor } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { renderPortrait } from '../media/portrait.ts';
import { storeMaster, type StoredMedia } from '../media/index.ts';
import { diskStorage, type MediaStorage } from '../media/storage.ts';
import { insertMissingDefaults, invalidateSettings } from '../settings/index.ts';
import { readSeedRenders, renderWork, type RenderedWork } from './seed-renders.ts';

export const SEED_CATALOGUE = path.join(
  import.meta.dirname,
  '..',
  '..',
  'content',
  'seed',
  'catalogue.json',
);

const localized = z.object({ fr: z.string().min(1), en: z.string().min(1) });
const catalogueSchema = z.object({
  works: z.array(
    z.object({
      slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
      title: localized,
      description: localized,
      year: z.number().int(),
      category: z.enum(['peinture', 'sculpture', 'mixte']),
      collection: z.string().min(1),
      image: z.object({
        seed: z.string(),
        palette: z.array(z.string()),
        width: z.number().int(),
        height: z.number().int(),
      }),
      /** issue 25: more photos after the main one — a close detail of the composition, or the
       * work hung on a wall at its real size (api/media/in-situ.ts). */
      views: z
        .array(
          z.discriminatedUnion('kind', [
            z.object({
              kind: z.literal('detail'),
              crop: z.object({ x: z.number(), y: z.number(), size: z.number() }),
              caption: localized,
            }),
            z.object({ kind: z.literal('in-situ'), caption: localized }),
          ]),
        )
        .max(7)
        .optional(),
      original: z.object({
        technique: localized,
        dimensions: z.string(),
        price_eur: z.number().int().positive(),
        sold: z.boolean(),
        /** issue 25, part 7: where it is signed (else DEMO_SIGNATURE) and whether it is framed. */
        signature: localized.optional(),
        framed: z.boolean().optional(),
      }),
      print: z
        .object({
          technique: localized,
          dimensions: z.string(),
          price_eur: z.number().int().positive(),
          stock: z.number().int().min(0),
          edition_size: z.number().int().positive(),
        })
        .nullable(),
    }),
  ),
});

export type SeedCatalogue = z.infer<typeof catalogueSchema>;

/** How the artist signs a canvas (issue 25, part 7): the demo originals' default. */
const DEMO_SIGNATURE = {
  fr: 'Signée en bas à droite ; titrée, datée et signée au dos',
  en: 'Signed lower right; titled, dated and signed on the back',
};

export async function readSeedCatalogue(file = SEED_CATALOGUE): Promise<SeedCatalogue> {
  return catalogueSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')));
}

export interface SeedResult {
  artworksInserted: number;
  settingsInserted: number;
}

async function idOf(db: Executor, slug: string): Promise<number | null> {
  const row = await db
    .selectFrom('artworks')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The demo's images being rendered, started before the database is ready (startSeedRenders). */
export interface SeedRenders {
  catalogue: SeedCatalogue;
  works: Map<string, Promise<RenderedWork>>;
  portrait: Promise<Buffer>;
}

/**
 * Starts rendering every image of the demo catalogue — the slow part of a first start, on every
 * core — without the database: the server starts it before it opens a new embedded database,
 * whose creation it then overlaps (issue 28 §2). The images `npm install` rendered are taken
 * instead when they are there (./seed-renders.ts, docs/decisions/062).
 */
export async function startSeedRenders(): Promise<SeedRenders> {
  const catalogue = await readSeedCatalogue();
  const installed = await installedSeedRenders(catalogue);
  if (installed) return installed;
  const works = new Map<string, Promise<RenderedWork>>();
  const portrait = renderPortrait();
  portrait.catch(() => {});
  inParallel(catalogue.works, os.availableParallelism(), renderWork).forEach((render, index) =>
    works.set(catalogue.works[index]!.slug, render),
  );
  return { catalogue, works, portrait };
}

/** The demo's images as `npm install` rendered them, or null. */
async function installedSeedRenders(catalogue: SeedCatalogue): Promise<SeedRenders | null> {
  const installed = await readSeedRenders(catalogue);
  if (!installed) return null;
  return {
    catalogue,
    works: new Map([...installed.works].map(([slug, work]) => [slug, Promise.resolve(work)])),
    portrait: Promise.resolve(installed.portrait),
  };
}

export async function seedDemo(
  db: Database,
  storage: MediaStorage,
  catalogue?: SeedCatalogue,
  early?: Promise<SeedRenders>,
): Promise<SeedResult> {
  // Renders started early, or made at install, are of the demo catalogue: not used when another
  // is given.
  const started = catalogue
    ? undefined
    : ((await early?.catch(() => undefined)) ??
      (await installedSeedRenders(await readSeedCatalogue())));
  const { works } = catalogue ?? started?.catalogue ?? (await readSeedCatalogue());
  const existing = new Set(
    (await db.selectFrom('artworks').select('slug').execute()).map((row) => row.slug),
  );
  // Rendering is the slow part (≈0.3 s an image; 4.3 s for the demo one after the other): the
  // works not seeded yet are rendered on every core at once (or were already: `early`), then
  // stored and inserted one by one in the catalogue's order, as before.
  const renders = new Map<string, Promise<RenderedWork>>(started?.works);
  const toRender = works.filter(
    (work) =>
      !renders.has(work.slug) &&
      (!existing.has(`${work.slug}-original`) ||
        (work.print && !existing.has(`${work.slug}-print`))),
  );
  inParallel(toRender, os.availableParallelism(), renderWork).forEach((render, index) =>
    renders.set(toRender[index]!.slug, render),
  );
  let artworksInserted = 0;
  let position = 0;
  for (const work of works) {
    const variants = [
      {
        slug: `${work.slug}-original`,
        type: 'original' as const,
        technique: work.original.technique,
        dimensions: work.original.dimensions,
        priceCents: work.original.price_eur * 100,
        stock: work.original.sold ? 0 : 1,
        isSold: work.original.sold,
        editionSize: null,
        signature: work.original.signature ?? DEMO_SIGNATURE,
        // A sculpture has no frame to speak of: not said rather than "unframed".
        framed: work.original.framed ?? (work.category === 'sculpture' ? null : false),
      },
      ...(work.print
        ? [
            {
              slug: `${work.slug}-print`,
              type: 'print' as const,
              technique: work.print.technique,
              dimensions: work.print.dimensions,
              priceCents: work.print.price_eur * 100,
              stock: work.print.stock,
              isSold: false,
              editionSize: work.print.edition_size,
              signature: { fr: '', en: '' },
              framed: null,
            },
          ]
        : []),
    ];
    const missing = variants.filter((v) => !existing.has(v.slug));
    const firstPosition = position;
    position += variants.length;
    if (missing.length === 0) continue;

    const rendered = await renders.get(work.slug);
    if (!rendered) throw new Error(`seed: ${work.slug} was not rendered`);
    const media = await storeMaster(db, storage, rendered.composition, work.title);
    const views: { media: StoredMedia; view: NonNullable<typeof work.views>[number] }[] = [];
    for (const [index, view] of (work.views ?? []).entries())
      views.push({
        media: await storeMaster(db, storage, rendered.views[index]!, view.caption),
        view,
      });
    await db.transaction().execute(async (trx) => {
      // The print names its original (artworks.original_id): inserted first, or already there.
      let originalId: number | null = null;
      for (const v of missing) {
        const result = await trx
          .insertInto('artworks')
          .values({
            slug: v.slug,
            artwork_type: v.type,
            title_fr: work.title.fr,
            title_en: work.title.en,
            description_fr: work.description.fr,
            description_en: work.description.en,
            technique_fr: v.technique.fr,
            technique_en: v.technique.en,
            dimensions: v.dimensions,
            year: work.year,
            price_cents: v.priceCents,
            stock: v.stock,
            category: work.category,
            collection: work.collection,
            is_available: true,
            is_sold: v.isSold,
            display_order: firstPosition + variants.indexOf(v),
            media_id: media.id,
            edition_size: v.editionSize,
            signature_fr: v.signature.fr,
            signature_en: v.signature.en,
            framed: v.framed,
            original_id:
              v.type === 'print' ? (originalId ?? (await idOf(trx, variants[0]!.slug))) : null,
          })
          .onConflict((oc) => oc.column('slug').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (result && v.type === 'original') originalId = result.id;
        // Photo 0 is the card image (written by the trigger from media_id); the others follow.
        if (result && views.length > 0)
          await trx
            .insertInto('artwork_images')
            .values(
              views.map(({ media: m, view }, index) => ({
                artwork_id: result.id,
                position: index + 1,
                media_id: m.id,
                caption_fr: view.caption.fr,
                caption_en: view.caption.en,
              })),
            )
            .execute();
        if (result) artworksInserted += 1;
      }
    });
  }
  await seedPortrait(db, storage, started?.portrait);
  const settingsInserted = await insertMissingDefaults(db);
  return { artworksInserted, settingsInserted };
}

/** `run` on each item, at most `limit` at a time; the promises in the items' order. A failure is
 * reported where its promise is awaited, never as an unhandled rejection meanwhile. */
function inParallel<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R>[] {
  let active = 0;
  const waiting: (() => void)[] = [];
  const promises = items.map(async (item) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await run(item);
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  });
  for (const promise of promises) promise.catch(() => {});
  return promises;
}

const PORTRAIT_ALT = {
  fr: 'Sasha Kovač au travail devant une grande toile, dans son atelier de Lisbonne',
  en: 'Sasha Kovač at work on a large canvas in her Lisbon studio',
};

/** The artist's portrait for the about page, unless the owner has chosen one already. */
async function seedPortrait(
  db: Database,
  storage: MediaStorage,
  rendered?: Promise<Buffer>,
): Promise<void> {
  const stored = await db
    .selectFrom('site_settings')
    .select('key')
    .where('key', '=', 'artist_portrait')
    .executeTakeFirst();
  if (stored) return;
  const bytes = (await rendered?.catch(() => undefined)) ?? (await renderPortrait());
  const media = await storeMaster(db, storage, bytes, PORTRAIT_ALT);
  const portrait = {
    sha256: media.sha256,
    width: media.width,
    height: media.height,
    alt: PORTRAIT_ALT,
  };
  await db
    .insertInto('site_settings')
    .values({ key: 'artist_portrait', value: JSON.stringify(portrait) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** First start: seed only a database that has never been seeded (no settings stored yet). */
export async function seedIfEmpty(
  db: Database,
  storage: MediaStorage,
  early?: Promise<SeedRenders>,
): Promise<SeedResult | null> {
  const row = await db
    .selectFrom('site_settings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(row.n) > 0) return null;
  return seedDemo(db, storage, undefined, early);
}

/** What every process that owns the database does first: migrate, then seed a new database. */
export async function prepareDatabase(
  db: Database,
  config: Pick<AppConfig, 'dataDir'>,
  early?: Promise<SeedRenders>,
): Promise<{ migrations: string[]; seeded: SeedResult | null }> {
  const migrations = await migrateToLatest(db);
  const seeded = await seedIfEmpty(db, diskStorage(path.join(config.dataDir, 'media')), early);
  invalidateSettings(db);
  return { migrations, seeded };
}
