// The back office's Messages (issue 25, docs/decisions/042): every contact message and enquiry
// about a work, newest first, a page at a time, all or unread only; and the read state, which the
// screen sets when a message is opened and the owner may toggle. The read state is the owner's own
// bookkeeping, not a change to the shop: it is not written to the audit log.
import { sql } from 'kysely';
import type {
  AdminMessage,
  MessageList,
  MessageListQuery,
} from '../../src/schemas/admin-messages.ts';
import { MESSAGES_PAGE_SIZE } from '../../src/schemas/admin-messages.ts';
import { type Clock, timeOf } from '../clock.ts';
import { SUBJECT_LABELS, type ContactSubjectCode } from '../contact/index.ts';
import type { Database } from '../db/index.ts';
import { AppError } from '../http/errors.ts';

/** The subjects in English, for the reply to an English-speaking sender. */
const SUBJECT_LABELS_EN: Record<ContactSubjectCode, string> = {
  information: 'Information request',
  private_visit: 'Private visit',
  purchase: 'Buying a work',
  exhibition: 'Exhibition',
  press: 'Press enquiry',
  other: 'Other',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A work page's key from a slug, as src/lib/groups.ts makes it (stems never meet in practice). */
const stem = (slug: string) => slug.replace(/-(original|print)$/, '');

function listQuery(db: Database) {
  return db
    .selectFrom('contact_messages as m')
    .leftJoin('artworks as a', 'a.id', 'm.artwork_id')
    .leftJoin('artworks as o', 'o.id', 'a.original_id')
    .select([
      'm.id',
      'm.kind',
      'm.created_at',
      'm.read_at',
      'm.name',
      'm.email',
      'm.locale',
      'm.subject',
      'm.message',
      'm.work_title',
      'm.delivered_at',
      'm.delivery_error',
      'a.slug',
      'a.title_en',
      'a.is_available',
      'a.archived_at',
      'o.slug as original_slug',
      'o.is_available as original_available',
      'o.archived_at as original_archived_at',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof listQuery>['executeTakeFirstOrThrow']>>;

function toMessage(row: Row): AdminMessage {
  const locale = row.locale === 'en' ? 'en' : 'fr';
  const subject = row.subject as ContactSubjectCode | null;
  const shown = row.slug !== null && row.is_available === true && row.archived_at === null;
  // A print's page is its original's while the original is on the site (src/lib/groups.ts).
  const originalShown =
    row.original_slug !== null && row.original_available === true && !row.original_archived_at;
  const key = row.slug === null ? null : stem(originalShown ? row.original_slug! : row.slug);
  const title = row.work_title ?? '';
  const titleEn = row.title_en ?? title;
  let replySubject: string;
  if (row.kind === 'enquiry')
    replySubject =
      locale === 'en' ? `Your enquiry about “${titleEn}”` : `Votre demande sur « ${title} »`;
  else {
    const label = subject
      ? (locale === 'en' ? SUBJECT_LABELS_EN : SUBJECT_LABELS)[subject]
      : undefined;
    const base = locale === 'en' ? 'Your message to the gallery' : 'Votre message à la galerie';
    replySubject = label ? `${base} – ${label}` : base;
  }
  return {
    id: row.id,
    kind: row.kind === 'enquiry' ? 'enquiry' : 'contact',
    receivedAt: new Date(row.created_at).toISOString(),
    readAt: row.read_at ? new Date(row.read_at).toISOString() : null,
    name: row.name,
    email: row.email,
    locale,
    subject: subject ? (SUBJECT_LABELS[subject] ?? subject) : null,
    message: row.message,
    work: row.kind === 'enquiry' ? { title, href: shown && key ? `/oeuvres/${key}` : null } : null,
    deliveryFailed: row.delivered_at === null && row.delivery_error !== null,
    replySubject,
  };
}

/** One page of messages, newest first; a page past the end is read as the last page. */
export async function listMessages(db: Database, query: MessageListQuery): Promise<MessageList> {
  const counts = await db
    .selectFrom('contact_messages')
    .select([
      sql<string>`count(*)`.as('total'),
      sql<string>`count(*) FILTER (WHERE read_at IS NULL)`.as('unread'),
    ])
    .executeTakeFirstOrThrow();
  const unread = Number(counts.unread);
  const matching = query.filter === 'unread' ? unread : Number(counts.total);
  const pages = Math.max(1, Math.ceil(matching / MESSAGES_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  let rows = listQuery(db);
  if (query.filter === 'unread') rows = rows.where('m.read_at', 'is', null);
  const found = await rows
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(MESSAGES_PAGE_SIZE)
    .offset((page - 1) * MESSAGES_PAGE_SIZE)
    .execute();
  return {
    messages: found.map(toMessage),
    filter: query.filter,
    page,
    pages,
    matching,
    unread,
  };
}

/** Unread messages, for the dashboard. */
export async function unreadMessages(db: Database): Promise<number> {
  const row = await db
    .selectFrom('contact_messages')
    .where('read_at', 'is', null)
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Marks a message read (now, unless it already was: the first reading is kept) or unread again.
 * An unknown or malformed id is 'not_found'.
 */
export async function setMessageRead(
  db: Database,
  id: string,
  read: boolean,
  deps: { now?: Clock } = {},
): Promise<{ message: AdminMessage; unread: number }> {
  if (!UUID.test(id)) throw new AppError('not_found', { message: 'No such message.' });
  const updated = await db
    .updateTable('contact_messages')
    .set({ read_at: read ? sql`coalesce(read_at, ${timeOf(deps)})` : null })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw new AppError('not_found', { message: 'No such message.' });
  const [row, unread] = await Promise.all([
    listQuery(db).where('m.id', '=', id).executeTakeFirstOrThrow(),
    unreadMessages(db),
  ]);
  return { message: toMessage(row), unread };
}
