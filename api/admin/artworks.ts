// The back office's works (back office §2 "Gestion des œuvres", §4, §5; issues 11 and 27): list
// with search and filters in SQL, create, edit with a version guard, visibility, sold, moves,
// reorder, reset, delete or archive, restore, actions on several works at once, and the home
// page's hero and featured works. Every change is audited in its own transaction and then asks for
// a publish, so the public pages follow without a restart.
import { sql, type Transaction } from 'kysely';
import {
  MAX_FEATURED,
  type AdminArtwork,
  type AdminArtworkRow,
  type ArtworkBulk,
  type ArtworkCreate,
  type ArtworkListQuery,
  type ArtworkPatch,
  type Highlight,
} from '../../src/schemas/artworks.ts';
import { Payment } from '../../src/domain/order-status.ts';
import { requestPublish } from '../build/publish.ts';
import { closeUnpaidOrder, expireSessionQuietly } from '../checkout/index.ts';
import type { Database } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { checkEdition } from '../editions/index.ts';
import { AppError } from '../http/errors.ts';
import type { MediaStorage } from '../media/storage.ts';
import type { Payments } from '../payments/index.ts';
import { mediaOfWork, readImages, writeImages } from './artwork-images.ts';
import { audit, type Actor } from './audit.ts';

type Trx = Transaction<DB>;

/** Lower case without accents (œ → oe): how a search is folded, as `artworks.search_folded`
 * (migration 20261123_0300) folds the works' texts. */
const ACCENTED = 'àâäáãåçéèêëíìîïñóòôöõúùûüýÿ';
const PLAIN = 'aaaaaaceeeeiiiinooooouuuuyy';
export function fold(text: string): string {
  let out = text.toLowerCase().replaceAll('œ', 'oe').replaceAll('æ', 'ae');
  for (let i = 0; i < ACCENTED.length; i++) out = out.replaceAll(ACCENTED[i]!, PLAIN[i]!);
  return out;
}

const ORDER = sql`a.display_order ASC, a.created_at DESC, a.id ASC`;

/** The ids of the works in gallery order with their 1-based place; with `archived`, the archived
 * ones (issue 27). Narrow rows, so the window sorts ids and keys, not whole works. */
function positions(db: Database | Trx, archived = false) {
  return db
    .selectFrom('artworks as a')
    .where('a.archived_at', archived ? 'is not' : 'is', null)
    .select(['a.id', sql<number>`row_number() OVER (ORDER BY ${ORDER})`.as('position')]);
}

/** The works' ids in gallery order (what a reorder starts from). */
async function orderedIds(db: Database | Trx): Promise<number[]> {
  return (await positions(db).orderBy('position').execute()).map((r) => r.id);
}

/** The works in gallery order, each with its place and what the list shows of it; with
 * `archived`, the archived ones instead (issue 27). Filter on `a.*` and order by `p.position`:
 * the place is the whole list's. */
function rows(db: Database | Trx, archived = false) {
  return db
    .selectFrom(positions(db, archived).as('p'))
    .innerJoin('artworks as a', 'a.id', 'p.id')
    .leftJoin('media as m', 'm.id', 'a.media_id')
    .select([
      'a.id',
      'a.artwork_type',
      'a.title_fr',
      'a.title_en',
      'a.technique_fr',
      'a.technique_en',
      'a.category',
      'a.year',
      'a.dimensions',
      'a.price_cents',
      'a.stock',
      'a.edition_size',
      'a.is_available',
      'a.is_sold',
      'a.original_id',
      'a.highlight',
      'a.archived_at',
      'a.version',
      'm.sha256',
      'm.width',
      'm.height',
      'p.position',
    ]);
}

/** A work whole, as the form edits it: the list's columns and the rest. */
function wholeRows(db: Database | Trx) {
  return rows(db).select([
    'a.slug',
    'a.description_fr',
    'a.description_en',
    'a.collection',
    'a.edition_ea',
    'a.edition_hc',
    'a.signature_fr',
    'a.signature_en',
    'a.framed',
    'a.shipping_note_fr',
    'a.shipping_note_en',
    'a.display_order',
  ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof rows>['execute']>>[number];
type WholeRow = Awaited<ReturnType<ReturnType<typeof wholeRows>['execute']>>[number];

function toRow(r: Row): AdminArtworkRow {
  return {
    id: r.id,
    type: r.artwork_type === 'original' ? 'original' : 'print',
    title: { fr: r.title_fr, en: r.title_en },
    technique: { fr: r.technique_fr, en: r.technique_en },
    category: r.category as AdminArtwork['category'],
    year: r.year,
    dimensions: r.dimensions,
    priceCents: r.price_cents,
    stock: r.stock,
    editionSize: r.edition_size,
    isAvailable: r.is_available,
    isSold: r.is_sold,
    originalId: r.original_id,
    position: Number(r.position),
    highlight: r.highlight === 'hero' || r.highlight === 'featured' ? r.highlight : null,
    archivedAt: r.archived_at ? new Date(r.archived_at).toISOString() : null,
    image:
      r.sha256 && r.width && r.height
        ? { sha256: r.sha256, width: r.width, height: r.height }
        : null,
    version: r.version,
  };
}

function toAdmin(r: WholeRow, images: AdminArtwork['images']): AdminArtwork {
  return {
    ...toRow(r),
    slug: r.slug,
    description: { fr: r.description_fr, en: r.description_en },
    collection: r.collection,
    editionEa: r.edition_ea,
    editionHc: r.edition_hc,
    signature: { fr: r.signature_fr, en: r.signature_en },
    framed: r.framed,
    shippingNote: { fr: r.shipping_note_fr, en: r.shipping_note_en },
    displayOrder: r.display_order,
    images,
  };
}

/** The list of §2: every work not archived (or, asked, the archived ones), in gallery order,
 * searched and filtered in SQL; `total` counts the works in the gallery, `archived` the others. */
export async function listAdminArtworks(
  db: Database,
  query: ArtworkListQuery,
): Promise<{ total: number; archived: number; artworks: AdminArtworkRow[] }> {
  // The list leaves out what only the form shows (it loads the work whole): a lighter answer.
  let filtered = rows(db, query.archived === true);
  if (query.category) filtered = filtered.where('a.category', '=', query.category);
  if (query.type) filtered = filtered.where('a.artwork_type', '=', query.type);
  const q = fold(query.q.trim());
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filtered = filtered.where('a.search_folded', 'like', like);
  }
  const [found, counts] = await Promise.all([
    filtered.orderBy('p.position').execute(),
    db
      .selectFrom('artworks')
      .select((eb) => [
        eb.fn.count<number>('id').filterWhere('archived_at', 'is', null).as('n'),
        eb.fn.count<number>('id').filterWhere('archived_at', 'is not', null).as('archived'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(counts.n),
    archived: Number(counts.archived),
    artworks: found.map(toRow),
  };
}

export async function getAdminArtwork(db: Database | Trx, id: number): Promise<AdminArtwork> {
  const row = await wholeRows(db).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', { message: 'No such artwork.' });
  return toAdmin(row, (await readImages(db, [id])).get(id) ?? []);
}

function slugify(title: string): string {
  return (
    fold(title)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'oeuvre'
  );
}

async function freeSlug(trx: Trx, base: string): Promise<string> {
  const taken = new Set(
    (
      await trx
        .selectFrom('artworks')
        .select('slug')
        .where('slug', 'like', `${base.replace(/-(original|print)$/, '')}%`)
        .execute()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  const [stem, type] = [
    base.replace(/-(original|print)$/, ''),
    /-(original|print)$/.exec(base)?.[1],
  ];
  for (let n = 2; ; n++) {
    const candidate = `${stem}-${n}${type ? `-${type}` : ''}`;
    if (!taken.has(candidate)) return candidate;
  }
}

async function mediaIdOf(trx: Trx, sha256: string | null): Promise<string | null> {
  if (!sha256) return null;
  const media = await trx
    .selectFrom('media')
    .select('id')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  if (!media)
    throw new AppError('invalid_input', { fields: { imageSha256: 'admin.artwork.error.image' } });
  return media.id;
}

async function checkOriginal(trx: Trx, type: string, originalId: number | null | undefined) {
  if (originalId === null || originalId === undefined) return;
  if (type !== 'print')
    throw new AppError('invalid_input', {
      fields: { originalId: 'admin.artwork.error.originalOnlyPrint' },
    });
  const original = await trx
    .selectFrom('artworks')
    .select('artwork_type')
    .where('id', '=', originalId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (original?.artwork_type !== 'original')
    throw new AppError('invalid_input', { fields: { originalId: 'admin.artwork.error.original' } });
}

/** issue 25, part 7: signature, frame and shipping note describe an original; a print refuses them. */
function checkCollectorDetails(
  type: string,
  input: Pick<ArtworkPatch, 'signature' | 'framed' | 'shippingNote'>,
) {
  if (type === 'original') return;
  const fields: Record<string, string> = {};
  for (const key of ['signature', 'framed', 'shippingNote'] as const)
    if (input[key] !== undefined) fields[key] = 'admin.artwork.error.originalOnly';
  if (Object.keys(fields).length) throw new AppError('invalid_input', { fields });
}

/** The place after the last work of the gallery. */
async function endOfOrder(trx: Trx): Promise<number> {
  const last = await trx
    .selectFrom('artworks')
    .select((eb) => eb.fn.max<number>('display_order').as('max'))
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(last?.max ?? 0) + 1;
}

/** A new work, last in the gallery (back office §4: it starts visible and unsold). It never takes
 * the home page's hero by itself (issue 27): the owner chooses it with 'Mettre en avant'. */
export async function createArtwork(
  db: Database,
  input: ArtworkCreate,
  actor: Actor,
): Promise<AdminArtwork> {
  const created = await db.transaction().execute(async (trx) => {
    await checkOriginal(trx, input.type, input.originalId);
    checkCollectorDetails(input.type, input);
    const original = input.type === 'original';
    const row = await trx
      .insertInto('artworks')
      .values({
        slug: await freeSlug(trx, `${slugify(input.title.fr)}-${input.type}`),
        artwork_type: input.type,
        title_fr: input.title.fr,
        title_en: input.title.en,
        description_fr: input.description.fr,
        description_en: input.description.en,
        technique_fr: input.technique.fr,
        technique_en: input.technique.en,
        category: input.category,
        collection: input.collection || 'moderna',
        year: input.year,
        dimensions: input.dimensions,
        price_cents: input.priceCents,
        stock: original ? (input.isSold ? 0 : 1) : input.stock,
        edition_size: original ? null : input.editionSize,
        edition_ea: original ? 0 : (input.editionEa ?? 0),
        edition_hc: original ? 0 : (input.editionHc ?? 0),
        is_available: input.isAvailable,
        is_sold: original && input.isSold,
        original_id: original ? null : input.originalId,
        // issue 25, part 7: an original's; a print has none (its edition says what it is).
        signature_fr: original ? (input.signature?.fr ?? '') : '',
        signature_en: original ? (input.signature?.en ?? '') : '',
        framed: original ? (input.framed ?? null) : null,
        shipping_note_fr: original ? (input.shippingNote?.fr ?? '') : '',
        shipping_note_en: original ? (input.shippingNote?.en ?? '') : '',
        media_id: input.images ? null : await mediaIdOf(trx, input.imageSha256 ?? null),
        display_order: await endOfOrder(trx),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The list, when given, is the whole truth (its first photo becomes the card image).
    if (input.images) await writeImages(trx, row.id, input.images);
    await checkEdition(trx, row.id);
    const after = await getAdminArtwork(trx, row.id);
    await audit(trx, actor, 'artwork.create', 'artwork', row.id, null, after);
    return after;
  });
  requestPublish(`artwork ${created.id} created`, {
    change: { kind: 'work', title: created.title.fr },
  });
  return created;
}

/** Locks a work for a change; refuses one made on an older version (with the fresh values). */
async function lockFresh(trx: Trx, id: number, version: number | undefined): Promise<AdminArtwork> {
  const locked = await trx
    .selectFrom('artworks')
    .select(['id', 'version'])
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!locked) throw new AppError('not_found', { message: 'No such artwork.' });
  const current = await getAdminArtwork(trx, id);
  if (version !== undefined && locked.version !== version)
    throw new AppError('version_conflict', { details: { artwork: current } });
  return current;
}

/**
 * Ends the checkouts holding an original about to be sold here: their holds are released and
 * their orders closed; the payment sessions are expired after the commit. A payment that still
 * arrives is refunded by the webhook (the order is no longer unpaid).
 */
async function endHolds(trx: Trx, artworkId: number): Promise<string[]> {
  const holding = await trx
    .selectFrom('holds as h')
    .innerJoin('orders as o', 'o.id', 'h.order_id')
    .select(['o.id', 'o.stripe_session_id'])
    .where('h.artwork_id', '=', artworkId)
    .where('h.state', '=', 'active')
    .execute();
  const sessions: string[] = [];
  for (const order of holding) {
    if (await closeUnpaidOrder(trx, order.id, Payment.expired))
      if (order.stripe_session_id) sessions.push(order.stripe_session_id);
  }
  return sessions;
}

export interface ChangeDeps {
  db: Database;
  /** To expire the payment sessions of checkouts a change ends (marking sold). */
  payments?: Payments | undefined;
}

export async function updateArtwork(
  deps: ChangeDeps,
  id: number,
  patch: ArtworkPatch,
  actor: Actor,
): Promise<AdminArtwork> {
  let sessions: string[] = [];
  const updated = await deps.db.transaction().execute(async (trx) => {
    const before = await lockFresh(trx, id, patch.version);
    const original = before.type === 'original';
    await checkOriginal(trx, before.type, patch.originalId);
    checkCollectorDetails(before.type, patch);
    const selling = original && patch.isSold === true && !before.isSold;
    if (selling) sessions = await endHolds(trx, id);
    await trx
      .updateTable('artworks')
      .set({
        ...(patch.title ? { title_fr: patch.title.fr, title_en: patch.title.en } : {}),
        ...(patch.description
          ? { description_fr: patch.description.fr, description_en: patch.description.en }
          : {}),
        ...(patch.technique
          ? { technique_fr: patch.technique.fr, technique_en: patch.technique.en }
          : {}),
        ...(patch.category !== undefined ? { category: patch.category } : {}),
        ...(patch.collection !== undefined ? { collection: patch.collection || 'moderna' } : {}),
        ...(patch.dimensions !== undefined ? { dimensions: patch.dimensions } : {}),
        ...(patch.year !== undefined ? { year: patch.year } : {}),
        ...(patch.priceCents !== undefined ? { price_cents: patch.priceCents } : {}),
        ...(patch.stock !== undefined && !original ? { stock: patch.stock } : {}),
        ...(patch.editionSize !== undefined && !original
          ? { edition_size: patch.editionSize }
          : {}),
        ...(patch.editionEa !== undefined && !original ? { edition_ea: patch.editionEa } : {}),
        ...(patch.editionHc !== undefined && !original ? { edition_hc: patch.editionHc } : {}),
        ...(patch.isAvailable !== undefined ? { is_available: patch.isAvailable } : {}),
        ...(patch.isSold !== undefined && original
          ? { is_sold: patch.isSold, stock: patch.isSold ? 0 : 1 }
          : {}),
        ...(patch.originalId !== undefined && !original ? { original_id: patch.originalId } : {}),
        ...(patch.signature && original
          ? { signature_fr: patch.signature.fr, signature_en: patch.signature.en }
          : {}),
        ...(patch.framed !== undefined && original ? { framed: patch.framed } : {}),
        ...(patch.shippingNote && original
          ? { shipping_note_fr: patch.shippingNote.fr, shipping_note_en: patch.shippingNote.en }
          : {}),
        ...(patch.imageSha256 && !patch.images
          ? { media_id: await mediaIdOf(trx, patch.imageSha256) }
          : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    if (patch.images) await writeImages(trx, id, patch.images);
    await checkEdition(trx, id);
    const after = await getAdminArtwork(trx, id);
    await audit(
      trx,
      actor,
      selling ? 'artwork.sold' : 'artwork.update',
      'artwork',
      id,
      before,
      after,
    );
    return after;
  });
  if (deps.payments) for (const s of sessions) await expireSessionQuietly(deps.payments, s);
  requestPublish(`artwork ${id} changed`, { change: { kind: 'work', title: updated.title.fr } });
  return updated;
}

/** Sets the order of the works to `ids` (drag and drop), in one transaction. */
export async function reorderArtworks(db: Database, ids: number[], actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await orderedIds(trx);
    const wanted = new Set(ids);
    if (
      wanted.size !== ids.length ||
      current.length !== ids.length ||
      current.some((id) => !wanted.has(id))
    )
      throw new AppError('version_conflict', { message: 'The list changed meanwhile: reload it.' });
    await renumber(trx, ids);
    await audit(
      trx,
      actor,
      'artwork.reorder',
      'artwork',
      'all',
      { order: current },
      { order: ids },
    );
  });
  requestPublish('artworks reordered', { change: { kind: 'order-of-works' } });
}

async function renumber(trx: Trx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`UPDATE artworks AS a SET display_order = v.position
    FROM (SELECT * FROM unnest(${sql.val(ids)}::int[]) WITH ORDINALITY AS t(id, position)) AS v
    WHERE a.id = v.id AND a.display_order IS DISTINCT FROM v.position::int`.execute(trx);
}

/** 'Haut' / 'Bas' (§4): swaps a work with its neighbour in the gallery order. */
export async function moveArtwork(
  db: Database,
  id: number,
  direction: 'up' | 'down',
  actor: Actor,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .selectFrom('artworks')
      .select('id')
      .where('archived_at', 'is', null)
      .forUpdate()
      .execute();
    const ids = await orderedIds(trx);
    const at = ids.indexOf(id);
    if (at < 0) throw new AppError('not_found', { message: 'No such artwork.' });
    const to = direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= ids.length)
      throw new AppError('rejected', {
        message:
          direction === 'up' ? 'Déjà en première position' : 'Impossible de déplacer vers le bas',
      });
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    await renumber(trx, ids);
    await audit(
      trx,
      actor,
      `artwork.move_${direction}`,
      'artwork',
      id,
      { position: at + 1 },
      { position: to + 1 },
    );
  });
  requestPublish(`artwork ${id} moved`, { change: { kind: 'order-of-works' } });
}

/** 'Réinitialiser l'ordre': the catalogue's own order again — by the date each work was added,
 * oldest first (issue 27: the seed's first work stays first). */
export async function resetOrder(db: Database, actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await orderedIds(trx);
    const added = await trx
      .selectFrom('artworks')
      .select('id')
      .where('archived_at', 'is', null)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const after = added.map((r) => r.id);
    await renumber(trx, after);
    await audit(
      trx,
      actor,
      'artwork.reset_order',
      'artwork',
      'all',
      { order: before },
      { order: after },
    );
  });
  requestPublish('artwork order reset', { change: { kind: 'order-of-works' } });
}

/**
 * Deletes a work never ordered, with its image when nothing else uses it; a work that appears in
 * an order is archived instead (off the site and the list, kept for the order's history).
 */
export async function deleteArtwork(
  deps: { db: Database; storage?: MediaStorage | undefined },
  id: number,
  actor: Actor,
): Promise<{ archived: boolean }> {
  const unusedFiles: string[] = [];
  const result = await deps.db.transaction().execute(async (trx) => {
    const before = await lockFresh(trx, id, undefined);
    const ordered = await trx
      .selectFrom('order_items')
      .select('id')
      .where('artwork_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (ordered) {
      await endHolds(trx, id);
      await trx
        .updateTable('artworks')
        .set({
          archived_at: new Date(),
          is_available: false,
          highlight: null,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
      await audit(trx, actor, 'artwork.archive', 'artwork', id, before, null);
      return { archived: true, title: before.title.fr };
    }
    const photos = await mediaOfWork(trx, id);
    const card = await trx
      .selectFrom('artworks')
      .select('media_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('artworks').where('id', '=', id).execute();
    for (const mediaId of new Set([...(card.media_id ? [card.media_id] : []), ...photos])) {
      const file = await removeIfUnused(trx, mediaId);
      if (file) unusedFiles.push(file);
    }
    await audit(trx, actor, 'artwork.delete', 'artwork', id, before, null);
    return { archived: false, title: before.title.fr };
  });
  // After the commit: a failed removal leaves a file nobody references, never a missing one.
  if (deps.storage) for (const file of unusedFiles) await deps.storage.remove(file).catch(() => {});
  requestPublish(`artwork ${id} ${result.archived ? 'archived' : 'deleted'}`, {
    change: { kind: 'work', title: result.title },
  });
  return { archived: result.archived };
}

/** Deletes a media row no work and no setting uses any more: its master's storage key, else null. */
async function removeIfUnused(trx: Trx, mediaId: string): Promise<string | null> {
  const used = await trx
    .selectFrom('artworks')
    .select('id')
    .where('media_id', '=', mediaId)
    .union(
      trx.selectFrom('artwork_images').select('artwork_id as id').where('media_id', '=', mediaId),
    )
    .limit(1)
    .executeTakeFirst();
  // The portrait setting names its image by hash: never remove that one.
  const portrait = await trx
    .selectFrom('site_settings')
    .select('key')
    .where('key', '=', 'artist_portrait')
    .where(sql<boolean>`value->>'sha256' = (SELECT sha256 FROM media WHERE id = ${mediaId})`)
    .executeTakeFirst();
  if (used || portrait) return null;
  const removed = await trx
    .deleteFrom('media')
    .where('id', '=', mediaId)
    .returning('storage_key')
    .executeTakeFirst();
  return removed?.storage_key ?? null;
}

/** Brings an archived work back (issue 27): last in the gallery and hidden, so the owner checks it
 * before publishing it again. */
export async function restoreArtwork(
  db: Database,
  id: number,
  actor: Actor,
): Promise<AdminArtwork> {
  const restored = await db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('artworks')
      .select('id')
      .where('id', '=', id)
      .where('archived_at', 'is not', null)
      .forUpdate()
      .executeTakeFirst();
    if (!found) throw new AppError('not_found', { message: 'No such archived artwork.' });
    await trx
      .updateTable('artworks')
      .set({
        archived_at: null,
        is_available: false,
        display_order: await endOfOrder(trx),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    const after = await getAdminArtwork(trx, id);
    await audit(trx, actor, 'artwork.restore', 'artwork', id, null, after);
    return after;
  });
  requestPublish(`artwork ${id} restored`, { change: { kind: 'work', title: restored.title.fr } });
  return restored;
}

/** The works of `ids` that are in the gallery (not archived), locked; refuses an unknown one. */
async function lockMany(trx: Trx, ids: readonly number[]): Promise<void> {
  const found = await trx
    .selectFrom('artworks')
    .select('id')
    .where('id', 'in', ids)
    .where('archived_at', 'is', null)
    .forUpdate()
    .execute();
  if (found.length !== new Set(ids).size)
    throw new AppError('version_conflict', { message: 'The list changed meanwhile: reload it.' });
}

/** The gallery order with `ids` (in their current order) moved to its top or its bottom. */
export function moveToEdge(order: readonly number[], ids: readonly number[], to: 'top' | 'bottom') {
  const chosen = new Set(ids);
  const moved = order.filter((id) => chosen.has(id));
  const rest = order.filter((id) => !chosen.has(id));
  return to === 'top' ? [...moved, ...rest] : [...rest, ...moved];
}

export interface BulkResult {
  /** Works changed (hidden, published or moved); for 'delete', the works deleted for good. */
  changed: number;
  /** For 'delete': the works archived because orders name them. */
  archived: number;
}

/**
 * One action on several works (issue 27): hide, publish, move to the top or the bottom, delete.
 * Hide, publish and move are one transaction; a delete is each work's own (archive or delete, as
 * for one work), so a work that fails leaves the others done.
 */
export async function bulkArtworks(
  deps: { db: Database; storage?: MediaStorage | undefined },
  input: ArtworkBulk,
  actor: Actor,
): Promise<BulkResult> {
  const ids = [...new Set(input.ids)];
  if (input.action === 'delete') {
    // All of them or none: an unknown one refuses the action before anything is deleted.
    await deps.db.transaction().execute((trx) => lockMany(trx, ids));
    let archived = 0;
    for (const id of ids) if ((await deleteArtwork(deps, id, actor)).archived) archived++;
    return { changed: ids.length - archived, archived };
  }
  const changed = await deps.db.transaction().execute(async (trx) => {
    await lockMany(trx, ids);
    if (input.action === 'move') {
      const before = await orderedIds(trx);
      const after = moveToEdge(before, ids, input.to ?? 'top');
      await renumber(trx, after);
      await audit(
        trx,
        actor,
        'artwork.reorder',
        'artwork',
        'all',
        { order: before },
        { order: after },
      );
      return ids.length;
    }
    const visible = input.action === 'publish';
    const updated = await trx
      .updateTable('artworks')
      .set({ is_available: visible, updated_at: new Date() })
      .where('id', 'in', ids)
      .where('is_available', '!=', visible)
      .returning('id')
      .execute();
    await audit(
      trx,
      actor,
      visible ? 'artwork.bulk_publish' : 'artwork.bulk_hide',
      'artwork',
      'many',
      null,
      { ids: updated.map((r) => r.id) },
    );
    return updated.length;
  });
  requestPublish(`${ids.length} artworks: ${input.action}`, {
    change: { kind: 'works', count: ids.length },
  });
  return { changed, archived: 0 };
}

/**
 * 'Mettre en avant' (issue 27): the home page's hero (one work; choosing another replaces it) or
 * one of its featured works (at most MAX_FEATURED); null takes the work out of the home page's
 * choice. A hidden work may be chosen: the home page shows it once it is published.
 */
export async function setHighlight(
  db: Database,
  id: number,
  highlight: Highlight | null,
  actor: Actor,
): Promise<AdminArtwork> {
  const updated = await db.transaction().execute(async (trx) => {
    const before = await lockFresh(trx, id, undefined);
    if (highlight === 'hero')
      await trx
        .updateTable('artworks')
        .set({ highlight: null })
        .where('highlight', '=', 'hero')
        .where('id', '!=', id)
        .execute();
    if (highlight === 'featured' && before.highlight !== 'featured') {
      const featured = await trx
        .selectFrom('artworks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('highlight', '=', 'featured')
        .where('archived_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(featured.n) >= MAX_FEATURED)
        throw new AppError('rejected', {
          message: `Déjà ${MAX_FEATURED} œuvres en vedette : retirez-en une d'abord.`,
        });
    }
    await trx
      .updateTable('artworks')
      .set({ highlight, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    const after = await getAdminArtwork(trx, id);
    await audit(
      trx,
      actor,
      'artwork.highlight',
      'artwork',
      id,
      { highlight: before.highlight },
      { highlight },
    );
    return after;
  });
  requestPublish(`artwork ${id} highlight`, { change: { kind: 'work', title: updated.title.fr } });
  return updated;
}
