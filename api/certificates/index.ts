// Certificates of authenticity (issue 26, docs/decisions/046): issued in the payment's own
// transaction for every original and every numbered copy of a print, signed with the gallery's
// key, then only ever changed in state — replaced (a reissue), revoked (the work came back, or the
// owner said why), transferred (a new owner claimed it). A change makes a new certificate rather
// than editing a signed one.
import type { Executor } from '../db/index.ts';
import type { EditionKind } from '../../src/domain/editions.ts';
import { asContent, parisDate, type CertificateContent, type CertificateState } from './content.ts';
import { insertCertificate } from './issue.ts';
import { certificateSiteUrl, pdfDownloadUrl, publicCertificateUrl } from './links.ts';
import { ensureSigningKey, type SigningKey } from './signing.ts';

export {
  certificateSiteUrl,
  checkDownloadToken,
  downloadToken,
  pdfDownloadUrl,
  publicCertificateUrl,
} from './links.ts';

export type { CertificateContent, CertificateState } from './content.ts';

/** What an order's views (account, mail, back office) list for each certificate. */
export interface OrderCertificate {
  orderItemId: number;
  serial: string;
  /** The edition label ('7/50'), or null for an original. */
  label: string | null;
  state: CertificateState;
  /** The PDF, through a signed link that works without an account. */
  pdfUrl: string;
  publicUrl: string;
}

/**
 * Issues the certificates of a paid order inside the payment's transaction (after the edition
 * numbers are taken): one per original, one per copy of a print its edition numbered. An order
 * line that already has a valid certificate gets none more, so a repeat is harmless.
 */
export async function issueCertificates(
  trx: Executor,
  orderId: string,
  now: Date,
  siteUrl: string = certificateSiteUrl(),
): Promise<string[]> {
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'locale', 'user_id', 'customer_email', 'paid_at'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const items = await trx
    .selectFrom('order_items')
    .select(['id', 'artwork_id', 'artwork_type'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  const copies = await trx
    .selectFrom('edition_copies')
    .innerJoin('artworks', 'artworks.id', 'edition_copies.artwork_id')
    .select([
      'edition_copies.order_item_id',
      'edition_copies.kind',
      'edition_copies.number',
      'artworks.edition_size',
      'artworks.edition_ea',
      'artworks.edition_hc',
    ])
    .where('edition_copies.order_id', '=', orderId)
    .where('edition_copies.state', '=', 'sold')
    .orderBy('edition_copies.kind')
    .orderBy('edition_copies.number')
    .execute();
  const existing = await trx
    .selectFrom('certificates')
    .select(['order_item_id', 'edition_kind', 'edition_number'])
    .where('order_id', '=', orderId)
    .execute();
  const has = (itemId: number, kind: string | null, number: number | null) =>
    existing.some(
      (c) => c.order_item_id === itemId && c.edition_kind === kind && c.edition_number === number,
    );
  const saleDate = parisDate(order.paid_at ?? now);
  const base = {
    orderId,
    locale: order.locale === 'en' ? ('en' as const) : ('fr' as const),
    holderUserId: order.user_id,
    holderEmail: order.customer_email,
    saleDate,
    provenance: [{ event: 'sale' as const, date: saleDate }],
    replaces: null,
  };
  const issued: string[] = [];
  for (const item of items) {
    if (item.artwork_type === 'original') {
      if (has(item.id, null, null)) continue;
      issued.push(
        await insertCertificate(
          trx,
          { ...base, orderItemId: item.id, artworkId: item.artwork_id, edition: null },
          now,
          siteUrl,
        ),
      );
      continue;
    }
    for (const copy of copies.filter((c) => c.order_item_id === item.id)) {
      const kind = copy.kind as EditionKind;
      if (has(item.id, kind, copy.number)) continue;
      const size =
        kind === 'ea' ? copy.edition_ea : kind === 'hc' ? copy.edition_hc : copy.edition_size;
      if (!size) continue;
      issued.push(
        await insertCertificate(
          trx,
          {
            ...base,
            orderItemId: item.id,
            artworkId: item.artwork_id,
            edition: { kind, number: copy.number, size },
          },
          now,
          siteUrl,
        ),
      );
    }
  }
  return issued;
}

export interface StoredCertificate {
  serial: string;
  orderId: string | null;
  orderItemId: number | null;
  state: CertificateState;
  stateChangedAt: string | null;
  replacedBy: string | null;
  revokedReason: string | null;
  predecessor: string | null;
  holderUserId: string | null;
  holderEmail: string;
  issuedAt: string;
  content: CertificateContent;
  signature: string;
}

const COLUMNS = [
  'serial',
  'order_id',
  'order_item_id',
  'state',
  'state_changed_at',
  'replaced_by',
  'revoked_reason',
  'predecessor',
  'holder_user_id',
  'holder_email',
  'issued_at',
  'content',
  'signature',
] as const;

type Row = {
  serial: string;
  order_id: string | null;
  order_item_id: number | null;
  state: string;
  state_changed_at: Date | string | null;
  replaced_by: string | null;
  revoked_reason: string | null;
  predecessor: string | null;
  holder_user_id: string | null;
  holder_email: string;
  issued_at: Date | string;
  content: unknown;
  signature: string;
};

function toStored(row: Row): StoredCertificate {
  return {
    serial: row.serial,
    orderId: row.order_id,
    orderItemId: row.order_item_id,
    state: row.state as CertificateState,
    stateChangedAt: row.state_changed_at ? new Date(row.state_changed_at).toISOString() : null,
    replacedBy: row.replaced_by,
    revokedReason: row.revoked_reason,
    predecessor: row.predecessor,
    holderUserId: row.holder_user_id,
    holderEmail: row.holder_email,
    issuedAt: new Date(row.issued_at).toISOString(),
    content: asContent(row.content),
    signature: row.signature,
  };
}

export async function findCertificate(
  db: Executor,
  serial: string,
): Promise<StoredCertificate | null> {
  const row = await db
    .selectFrom('certificates')
    .select(COLUMNS)
    .where('serial', '=', serial)
    .executeTakeFirst();
  return row ? toStored(row) : null;
}

/** The certificates of some orders, oldest first, each with its links. */
export async function listOrderCertificates(
  db: Executor,
  orderIds: readonly string[],
): Promise<StoredCertificate[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectFrom('certificates')
    .select(COLUMNS)
    .where('order_id', 'in', orderIds)
    .orderBy('issued_at')
    .orderBy('order_item_id')
    .orderBy('edition_kind')
    .orderBy('edition_number')
    .execute();
  return rows.map(toStored);
}

/** Links of a stored certificate, as the order's views list it. */
export function orderCertificateOf(
  certificate: StoredCertificate,
  key: SigningKey,
  siteUrl: string,
): OrderCertificate {
  return {
    orderItemId: certificate.orderItemId ?? 0,
    serial: certificate.serial,
    label: certificate.content.edition?.label ?? null,
    state: certificate.state,
    pdfUrl: pdfDownloadUrl(siteUrl, key, certificate.serial),
    publicUrl: publicCertificateUrl(siteUrl, certificate.serial, certificate.content.language),
  };
}

/**
 * The certificates of some orders as the order's own views show them (the order mail, the back
 * office): every one still held under the order — a transferred certificate belongs to its new
 * owner and is left out.
 */
export async function certificatesOfOrders(
  db: Executor,
  orderIds: readonly string[],
  siteUrl: string = certificateSiteUrl(),
): Promise<Map<string, OrderCertificate[]>> {
  const out = new Map<string, OrderCertificate[]>();
  const rows = await listOrderCertificates(db, orderIds);
  if (rows.length === 0) return out;
  const key = await ensureSigningKey(db);
  for (const row of rows) {
    if (!row.orderId || row.state === 'transferred') continue;
    // The successor of a transfer is the new owner's, not the order's.
    if (row.content.provenance.some((step) => step.event === 'transfer')) continue;
    const list = out.get(row.orderId) ?? [];
    list.push(orderCertificateOf(row, key, siteUrl));
    out.set(row.orderId, list);
  }
  return out;
}
