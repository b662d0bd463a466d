// The register of editions (« Registre des tirages », issue 26, docs/decisions/045): for each print
// with a numbered edition, every number with its state — free, held by a payment in progress,
// sold (to whom, when), returned, retired — and its artist's proofs (EA) and hors-commerce copies
// (HC); the owner's decisions on returned numbers (sell again under the same number, or retire);
// and the register as CSV and PDF. Computed here, on the server; the screen only shows it.
import { sql } from 'kysely';
import { requestPublish } from '../build/publish.ts';
import type { Actor } from '../admin/audit.ts';
import type { Database, Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { editionLabel, type EditionKind } from '../../src/domain/editions.ts';
import { entryDetails, frenchDay } from './export.ts';
import { auditEdition, freeNumbers, heldCopies } from './index.ts';
import type {
  EditionEntry,
  EditionEntryState,
  EditionRegister,
  EditionSummary,
  ReturnedDecision,
} from '../../src/schemas/admin-editions.ts';

const NOT_FOUND =
  'Ce tirage est introuvable\u00a0: l’œuvre n’existe pas ou n’a pas de tirage numéroté.';

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/** Every print with a numbered edition, with its counts, newest work first. */
export async function listEditions(db: Executor): Promise<EditionSummary[]> {
  const rows = await db
    .selectFrom('artworks as a')
    .select([
      'a.id',
      'a.title_fr',
      'a.technique_fr',
      'a.dimensions',
      'a.year',
      'a.edition_size',
      'a.edition_ea',
      'a.edition_hc',
      'a.stock',
      'a.archived_at',
      sql<number>`(SELECT count(*) FROM edition_copies c
        WHERE c.artwork_id = a.id AND c.kind = 'numbered' AND c.state = 'sold')::int`.as('sold'),
      sql<number>`(SELECT count(*) FROM edition_copies c
        WHERE c.artwork_id = a.id AND c.kind = 'numbered' AND c.state = 'returned')::int`.as(
        'returned',
      ),
      sql<number>`(SELECT count(*) FROM edition_copies c
        WHERE c.artwork_id = a.id AND c.kind = 'numbered' AND c.state = 'retired')::int`.as(
        'retired',
      ),
      sql<number>`(SELECT coalesce(sum(h.quantity), 0) FROM holds h
        WHERE h.artwork_id = a.id AND h.state = 'active')::int`.as('held'),
    ])
    .where('a.artwork_type', '=', 'print')
    .where('a.edition_size', 'is not', null)
    .orderBy('a.archived_at', (ob) => ob.desc().nullsFirst())
    .orderBy('a.id', 'desc')
    .execute();
  return rows.map((r) => {
    const size = r.edition_size!;
    const taken = Number(r.sold) + Number(r.returned) + Number(r.retired);
    return {
      id: r.id,
      title: r.title_fr,
      technique: r.technique_fr,
      dimensions: r.dimensions,
      year: r.year,
      editionSize: size,
      ea: r.edition_ea,
      hc: r.edition_hc,
      stock: r.stock,
      sold: Number(r.sold),
      returned: Number(r.returned),
      retired: Number(r.retired),
      held: Number(r.held),
      free: Math.max(0, size - taken),
      archived: r.archived_at !== null,
    };
  });
}

/** One edition's register: every number (then the EA and HC copies) with its state. */
export async function editionRegister(db: Executor, artworkId: number): Promise<EditionRegister> {
  const work = await db
    .selectFrom('artworks')
    .select([
      'id',
      'title_fr',
      'technique_fr',
      'dimensions',
      'year',
      'edition_size',
      'edition_ea',
      'edition_hc',
      'stock',
      'archived_at',
    ])
    .where('id', '=', artworkId)
    .where('artwork_type', '=', 'print')
    .where('edition_size', 'is not', null)
    .executeTakeFirst();
  if (!work) throw new AppError('not_found', { message: NOT_FOUND });
  const size = work.edition_size!;
  const [copies, held] = await Promise.all([
    db
      .selectFrom('edition_copies as c')
      .leftJoin('orders as o', 'o.id', 'c.order_id')
      .select([
        'c.kind',
        'c.number',
        'c.state',
        'c.order_id',
        'c.sold_at',
        'c.returned_at',
        'c.return_reason',
        'c.released_at',
        'c.retired_at',
        'o.order_number',
        'o.customer_name',
        'o.customer_email',
      ])
      .where('c.artwork_id', '=', artworkId)
      .execute(),
    heldCopies(db, artworkId),
  ]);
  const byKey = new Map(copies.map((c) => [`${c.kind}:${c.number}`, c]));
  // The copies held by payments in progress take the lowest free numbers when they are paid (the
  // order of payments decides, so the register says "réservé" of the next ones, not of a buyer).
  let toHold = held;
  const entries: EditionEntry[] = [];
  const add = (kind: EditionKind, number: number, total: number) => {
    const row = byKey.get(`${kind}:${number}`);
    let state: EditionEntryState =
      kind === 'ea' ? 'ea' : kind === 'hc' ? 'hc' : ((row?.state ?? 'free') as EditionEntryState);
    if (row && kind !== 'numbered') state = row.state as EditionEntryState;
    if (kind === 'numbered' && state === 'free' && toHold > 0) {
      state = 'held';
      toHold -= 1;
    }
    const sale = row && row.state !== 'free' ? row : row?.returned_at ? row : undefined;
    const entry: Omit<EditionEntry, 'soldDay' | 'notes'> = {
      kind,
      number,
      label: editionLabel({ kind, number, size: total }),
      state,
      orderId: sale?.order_id ?? null,
      orderNumber: sale?.order_number ?? null,
      buyer: sale?.customer_name ?? null,
      email: sale?.customer_email ?? null,
      beforeRegister: row?.state === 'sold' && row.order_id === null,
      soldAt: iso(sale?.sold_at ?? null),
      returnedAt: iso(row?.returned_at ?? null),
      returnReason: (row?.return_reason as EditionEntry['returnReason']) ?? null,
      releasedAt: iso(row?.released_at ?? null),
      retiredAt: iso(row?.retired_at ?? null),
    };
    const notes = entryDetails({ ...entry, soldDay: '', notes: '' });
    entries.push({ ...entry, soldDay: frenchDay(entry.soldAt), notes });
  };
  for (let n = 1; n <= size; n++) add('numbered', n, size);
  for (let n = 1; n <= work.edition_ea; n++) add('ea', n, work.edition_ea);
  for (let n = 1; n <= work.edition_hc; n++) add('hc', n, work.edition_hc);
  const count = (state: EditionEntryState) =>
    entries.filter((e) => e.kind === 'numbered' && e.state === state).length;
  return {
    work: {
      id: work.id,
      title: work.title_fr,
      technique: work.technique_fr,
      dimensions: work.dimensions,
      year: work.year,
      editionSize: size,
      ea: work.edition_ea,
      hc: work.edition_hc,
      stock: work.stock,
      archived: work.archived_at !== null,
    },
    counts: {
      free: count('free'),
      held: count('held'),
      sold: count('sold'),
      returned: count('returned'),
      retired: count('retired'),
    },
    entries,
  };
}

const STATE_WORDS: Record<string, string> = {
  free: 'libre',
  returned: 'retourné',
  sold: 'vendu',
  retired: 'retiré',
};

/**
 * The owner's decision on a returned number: 'release' sells it again — free, the next sale may
 * take it, its copy back in the stock —; 'retire' takes it out of the edition for good — and its
 * copy out of the stock when the return had put it back on sale. Audited; refused (409, in French)
 * when the number is not one the owner can decide on.
 */
export async function decideReturnedNumber(
  db: Database,
  artworkId: number,
  number: number,
  decision: ReturnedDecision,
  actor: Actor,
  now: Date,
): Promise<EditionRegister> {
  const changed = await db.transaction().execute(async (trx) => {
    const work = await trx
      .selectFrom('artworks')
      .select(['id', 'title_fr', 'edition_size', 'stock'])
      .where('id', '=', artworkId)
      .where('artwork_type', '=', 'print')
      .where('edition_size', 'is not', null)
      .forUpdate()
      .executeTakeFirst();
    if (!work) throw new AppError('not_found', { message: NOT_FOUND });
    const size = work.edition_size!;
    const label = editionLabel({ kind: 'numbered', number, size });
    if (number > size)
      throw new AppError('not_found', { message: `Le tirage n’a pas de numéro ${label}.` });
    const row = await trx
      .selectFrom('edition_copies')
      .select(['id', 'state', 'returned_at', 'order_id'])
      .where('artwork_id', '=', artworkId)
      .where('kind', '=', 'numbered')
      .where('number', '=', number)
      .forUpdate()
      .executeTakeFirst();
    // A released number not sold again may still be retired; otherwise only a returned one.
    const decidable =
      row?.state === 'returned' ||
      (decision === 'retire' && row?.state === 'free' && row.returned_at !== null);
    if (!row || !decidable) {
      const state = STATE_WORDS[row?.state ?? 'free'] ?? row?.state;
      throw new AppError('edition_conflict', {
        message:
          decision === 'release'
            ? `Le numéro ${label} est «\u00a0${state}\u00a0»\u00a0: seul un numéro retourné peut être remis en vente.`
            : `Le numéro ${label} est «\u00a0${state}\u00a0»\u00a0: seul un numéro retourné peut être retiré.`,
      });
    }
    let stock = work.stock;
    if (decision === 'release') stock += 1;
    else if (row.state === 'free') {
      // The number was on sale with its copy: the copy leaves the stock, unless the stock was
      // already within the other free numbers (the owner lowered it meanwhile).
      const free = (await freeNumbers(trx, artworkId, size)).length - 1;
      const held = await heldCopies(trx, artworkId);
      if (stock + held > free) {
        if (stock === 0)
          throw new AppError('edition_conflict', {
            message: `Le numéro ${label} ne peut pas être retiré maintenant\u00a0: un paiement en cours attend peut-être ce numéro. Réessayez dans quelques minutes.`,
          });
        stock -= 1;
      }
    }
    await trx
      .updateTable('edition_copies')
      .set(
        decision === 'release'
          ? { state: 'free', released_at: now, updated_at: now }
          : { state: 'retired', retired_at: now, updated_at: now },
      )
      .where('id', '=', row.id)
      .execute();
    if (stock !== work.stock)
      await trx
        .updateTable('artworks')
        .set({ stock, updated_at: now })
        .where('id', '=', artworkId)
        .execute();
    await auditEdition(
      trx,
      actor,
      decision === 'release' ? 'edition.release' : 'edition.retire',
      artworkId,
      { number, label, state: row.state, stock: work.stock },
      {
        number,
        label,
        state: decision === 'release' ? 'free' : 'retired',
        stock,
        order: row.order_id,
      },
      now,
    );
    return { title: work.title_fr, label, stockChanged: stock !== work.stock };
  });
  // The stock shows on the work's page: the prerendered site catches up.
  if (changed.stockChanged)
    requestPublish(`edition ${changed.title} ${changed.label} ${decision}d`, {
      change: { kind: 'edition', title: changed.title },
    });
  return editionRegister(db, artworkId);
}
