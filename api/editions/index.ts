// Numbered editions (issue 26, docs/decisions/045). Each copy of a print edition sold takes the
// lowest free number in the payment's own transaction, under the artwork's row lock, so two
// payments never take one number and a payment that rolls back gives its number back. A number is
// free when it has no row in `edition_copies`, or a row in state 'free' (a returned number the
// owner put back on sale). The site sells copies of the numbered edition only; artist's proofs
// (EA) and hors-commerce copies (HC) are counted apart, on the work, and listed in the register.
//
// The stock of an editioned print never exceeds its free numbers minus the copies held by a
// payment in progress (the back office refuses more, returns keep it so): so a paid copy always
// finds a number. Should it not — a bug, or a stock changed behind the back office —, the payment
// is refunded whole with the reason logged, never numbered twice nor left unnumbered.
import { sql } from 'kysely';
import { audit, type Actor } from '../admin/audit.ts';
import type { Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { editionLabel, type EditionKind } from '../../src/domain/editions.ts';

export interface OrderEditionCopy {
  orderItemId: number;
  artworkId: number;
  kind: EditionKind;
  number: number;
  size: number;
  label: string;
}

/** A paid copy found no free number: the caller refunds the payment (nothing was written). */
export class EditionNumbersExhausted extends Error {
  override name = 'EditionNumbersExhausted';
  readonly artworkId: number;
  constructor(artworkId: number, wanted: number, free: number) {
    super(`edition of work ${artworkId} has ${free} free number(s) for ${wanted} copies sold`);
    this.artworkId = artworkId;
  }
}

/** The lowest free numbers of a work's numbered edition, at most `limit` (all when omitted). */
export async function freeNumbers(
  db: Executor,
  artworkId: number,
  editionSize: number,
  limit?: number,
): Promise<number[]> {
  const rows = await sql<{ n: number }>`
    SELECT n::int AS n FROM generate_series(1, ${editionSize}::int) AS n
    WHERE NOT EXISTS (
      SELECT 1 FROM edition_copies c
      WHERE c.artwork_id = ${artworkId} AND c.kind = 'numbered' AND c.number = n
        AND c.state <> 'free')
    ORDER BY n
    ${limit === undefined ? sql`` : sql`LIMIT ${limit}`}`.execute(db);
  return rows.rows.map((r) => Number(r.n));
}

/** Copies held by payments in progress (active holds) of a work. */
export async function heldCopies(db: Executor, artworkId: number): Promise<number> {
  const row = await db
    .selectFrom('holds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quantity'), eb.lit(0)).as('held'))
    .where('artwork_id', '=', artworkId)
    .where('state', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.held);
}

/** The order's print lines of a numbered edition, by work then line. */
async function numberedLines(trx: Executor, orderId: string) {
  return trx
    .selectFrom('order_items as i')
    .innerJoin('artworks as a', 'a.id', 'i.artwork_id')
    .select(['i.id', 'i.artwork_id', 'i.quantity', 'a.edition_size'])
    .where('i.order_id', '=', orderId)
    .where('i.artwork_type', '=', 'print')
    .where('a.edition_size', 'is not', null)
    .orderBy('i.artwork_id')
    .orderBy('i.id')
    .execute();
}

/**
 * Numbers the paid order's copies: each takes the lowest free number of its edition. Inside the
 * payment's transaction. The works are locked in id order (no deadlock between two payments of
 * the same works), and every number is checked before any is written, so an exhausted edition
 * throws EditionNumbersExhausted with nothing changed. Lines already numbered are left as they are.
 */
export async function assignEditionNumbers(
  trx: Executor,
  orderId: string,
  now: Date,
): Promise<void> {
  const lines = await numberedLines(trx, orderId);
  if (lines.length === 0) return;
  const numbered = await trx
    .selectFrom('edition_copies')
    .select(['order_item_id'])
    .select((eb) => eb.fn.countAll<number>().as('copies'))
    .where('order_id', '=', orderId)
    .where('state', '=', 'sold')
    .groupBy('order_item_id')
    .execute();
  const done = new Map(numbered.map((r) => [r.order_item_id, Number(r.copies)]));
  const plan: { itemId: number; artworkId: number; numbers: number[] }[] = [];
  const works = [...new Set(lines.map((l) => l.artwork_id!))];
  for (const artworkId of works) {
    const work = await trx
      .selectFrom('artworks')
      .select(['id', 'edition_size'])
      .where('id', '=', artworkId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const ofWork = lines.filter((l) => l.artwork_id === artworkId);
    const wanted = ofWork.reduce((sum, l) => sum + l.quantity - (done.get(l.id) ?? 0), 0);
    if (wanted <= 0) continue;
    const free = await freeNumbers(trx, artworkId, work.edition_size!, wanted);
    if (free.length < wanted) throw new EditionNumbersExhausted(artworkId, wanted, free.length);
    for (const line of ofWork) {
      const count = line.quantity - (done.get(line.id) ?? 0);
      if (count > 0) plan.push({ itemId: line.id, artworkId, numbers: free.splice(0, count) });
    }
  }
  for (const { itemId, artworkId, numbers } of plan)
    for (const number of numbers) {
      const sold = {
        state: 'sold',
        order_id: orderId,
        order_item_id: itemId,
        sold_at: now,
        returned_at: null,
        return_reason: null,
        released_at: null,
        retired_at: null,
        updated_at: now,
      };
      // A returned number put back on sale has its row: it is taken again, its past in the audit.
      const reused = await trx
        .updateTable('edition_copies')
        .set(sold)
        .where('artwork_id', '=', artworkId)
        .where('kind', '=', 'numbered')
        .where('number', '=', number)
        .where('state', '=', 'free')
        .executeTakeFirst();
      if (Number(reused.numUpdatedRows) === 0)
        await trx
          .insertInto('edition_copies')
          .values({ artwork_id: artworkId, kind: 'numbered', number, ...sold })
          .execute();
    }
}

/**
 * The edition copies of each order, by line then number — sold, or returned since (and then freed
 * or retired, until another sale takes the number); an order without any is absent from the map.
 */
export async function editionCopiesOfOrders(
  db: Executor,
  orderIds: readonly string[],
): Promise<Map<string, OrderEditionCopy[]>> {
  const result = new Map<string, OrderEditionCopy[]>();
  if (orderIds.length === 0) return result;
  const rows = await db
    .selectFrom('edition_copies as c')
    .innerJoin('artworks as a', 'a.id', 'c.artwork_id')
    .select([
      'c.order_id',
      'c.order_item_id',
      'c.artwork_id',
      'c.kind',
      'c.number',
      'a.edition_size',
      'a.edition_ea',
      'a.edition_hc',
    ])
    .where('c.order_id', 'in', [...new Set(orderIds)])
    .where('c.order_item_id', 'is not', null)
    .orderBy('c.order_item_id')
    .orderBy('c.kind')
    .orderBy('c.number')
    .execute();
  for (const row of rows) {
    const kind = row.kind as EditionKind;
    const size =
      kind === 'ea' ? row.edition_ea : kind === 'hc' ? row.edition_hc : (row.edition_size ?? 0);
    const copy: OrderEditionCopy = {
      orderItemId: row.order_item_id!,
      artworkId: row.artwork_id,
      kind,
      number: row.number,
      size,
      label: editionLabel({ kind, number: row.number, size }),
    };
    const list = result.get(row.order_id!);
    if (list) list.push(copy);
    else result.set(row.order_id!, [copy]);
  }
  return result;
}

/** The labels of each order line (by order_items id), for the order summaries. */
export async function editionLabelsOfItems(
  db: Executor,
  orderIds: readonly string[],
): Promise<Map<number, string[]>> {
  const byItem = new Map<number, string[]>();
  for (const copies of (await editionCopiesOfOrders(db, orderIds)).values())
    for (const copy of copies) {
      const list = byItem.get(copy.orderItemId);
      if (list) list.push(copy.label);
      else byItem.set(copy.orderItemId, [copy.label]);
    }
  return byItem;
}

export type ReturnReason = 'cancellation' | 'refund' | 'withdrawal';

export interface ReturnedCopy {
  artworkId: number;
  number: number;
  /** 'returned': the owner decides in the register; 'free': put back on sale with the works. */
  state: 'returned' | 'free';
}

/**
 * The order's copies come back (cancellation, refund, withdrawal): their numbers are 'returned',
 * for the owner to sell again or retire in the register. When the owner put the works back on
 * sale with the return (`restock`), the numbers of works still on the site are free at once — the
 * next sale may take them — and the register still lets the owner retire them while unsold.
 * Returns the copies changed; a second return of the same order changes only what `restock` adds.
 */
export async function returnEditionCopies(
  trx: Executor,
  orderId: string,
  now: Date,
  reason: ReturnReason,
  restock: boolean,
  actor: Actor | null = null,
  /** Only the copies of these order lines (a refund of some lines, issue 27); all when absent. */
  itemIds?: readonly number[],
): Promise<ReturnedCopy[]> {
  const changed: ReturnedCopy[] = [];
  if (itemIds?.length === 0) return changed;
  const returned = await trx
    .updateTable('edition_copies')
    .set({ state: 'returned', returned_at: now, return_reason: reason, updated_at: now })
    .where('order_id', '=', orderId)
    .$if(itemIds !== undefined, (qb) => qb.where('order_item_id', 'in', itemIds!))
    .where('state', '=', 'sold')
    .returning(['artwork_id', 'number'])
    .execute();
  for (const r of returned)
    changed.push({ artworkId: r.artwork_id, number: r.number, state: 'returned' });
  const released = !restock
    ? []
    : await trx
        .updateTable('edition_copies')
        .set({ state: 'free', released_at: now, updated_at: now })
        .where('order_id', '=', orderId)
        .$if(itemIds !== undefined, (qb) => qb.where('order_item_id', 'in', itemIds!))
        .where('state', '=', 'returned')
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('artworks as a')
              .select('a.id')
              .whereRef('a.id', '=', 'edition_copies.artwork_id')
              .where('a.archived_at', 'is', null),
          ),
        )
        .returning(['artwork_id', 'number'])
        .execute();
  for (const r of released) {
    const same = changed.find((c) => c.artworkId === r.artwork_id && c.number === r.number);
    if (same) same.state = 'free';
    else changed.push({ artworkId: r.artwork_id, number: r.number, state: 'free' });
  }
  // The register's history of each work: which numbers came back, why, from which order.
  for (const artworkId of [...new Set(changed.map((c) => c.artworkId))])
    await auditEdition(
      trx,
      actor,
      'edition.returned',
      artworkId,
      null,
      {
        order: orderId,
        reason,
        copies: changed
          .filter((c) => c.artworkId === artworkId)
          .map(({ number, state }) => ({ number, state })),
      },
      now,
    );
  return changed;
}

/** An entry of a work's edition history; by the owner, or by the buyer or the system (no actor). */
export async function auditEdition(
  trx: Executor,
  actor: Actor | null,
  action: string,
  artworkId: number,
  before: unknown,
  after: unknown,
  now: Date,
): Promise<void> {
  if (actor) return audit(trx, actor, action, 'edition', artworkId, before, after);
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: null,
      actor_email: null,
      action,
      entity: 'edition',
      entity_id: String(artworkId),
      before: before === null ? null : JSON.stringify(before),
      after: JSON.stringify(after),
      at: now,
    })
    .execute();
}

/**
 * After the back office changed a work (api/admin/artworks.ts, in its transaction): a numbered
 * edition must keep every number sold, returned or retired within its size, and its stock within
 * its free numbers less the copies held by payments in progress — else a paid copy would find no
 * number. Throws `invalid_input` on the field to correct; the caller's transaction rolls back.
 */
export async function checkEdition(trx: Executor, artworkId: number): Promise<void> {
  const work = await trx
    .selectFrom('artworks')
    .select(['artwork_type', 'edition_size', 'stock'])
    .where('id', '=', artworkId)
    .executeTakeFirst();
  if (!work || work.artwork_type !== 'print') return;
  const taken = await trx
    .selectFrom('edition_copies')
    .select((eb) => eb.fn.max<number>('number').as('highest'))
    .where('artwork_id', '=', artworkId)
    .where('kind', '=', 'numbered')
    .where('state', '<>', 'free')
    .executeTakeFirstOrThrow();
  const highest = taken.highest === null ? 0 : Number(taken.highest);
  if (work.edition_size === null) {
    if (highest > 0)
      throw new AppError('invalid_input', {
        fields: { editionSize: 'admin.artwork.error.editionBelowNumbers' },
      });
    return;
  }
  if (highest > work.edition_size)
    throw new AppError('invalid_input', {
      fields: { editionSize: 'admin.artwork.error.editionBelowNumbers' },
    });
  const free = (await freeNumbers(trx, artworkId, work.edition_size)).length;
  if (work.stock + (await heldCopies(trx, artworkId)) > free)
    throw new AppError('invalid_input', {
      fields: { stock: 'admin.artwork.error.stockOverNumbers' },
    });
}
