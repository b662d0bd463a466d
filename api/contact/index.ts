// Contact messages (storefront §2 Contact, §3 Contact form) and enquiries about a work (issue 25):
// refuse bots and floods, store the message first so nothing is lost, then mail it to the
// gallery's contact address. The owner reads them all on the back office's Messages screen.
import { isIP } from 'node:net';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { errorText } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import { hit, rateLimitKey, type RateLimitRule } from '../ratelimit/index.ts';
import { liveSettings, type SiteSettings } from '../settings/index.ts';
import { type Clock, timeOf } from '../clock.ts';
import { formatParisDateTime } from '../../src/schemas/withdrawal.ts';

/** storefront §3, first reading; the same list as src/schemas/contact.ts (tsc checks they agree). */
export type ContactSubjectCode =
  'information' | 'private_visit' | 'purchase' | 'exhibition' | 'press' | 'other';

/** What the endpoint hands over once its schema has accepted the input. */
export interface ContactMessageInput {
  name: string;
  email: string;
  subject: ContactSubjectCode;
  message: string;
  /** The honeypot field: people leave it empty. */
  website?: string | undefined;
  locale: 'fr' | 'en';
}

export interface ContactDeps {
  db: Database;
  mailer: Mailer;
  /** Read from the database when not given. */
  settings?: SiteSettings;
  now?: Clock;
  /** The public site, for the work's link in an enquiry's mail; a path alone without it. */
  siteUrl?: string;
}

// The notification goes to the owner, whose back office is French (back office §1).
export const SUBJECT_LABELS: Record<ContactSubjectCode, string> = {
  information: 'Demande d’information',
  private_visit: 'Visite privée',
  purchase: 'Achat d’une œuvre',
  exhibition: 'Exposition',
  press: 'Demande presse',
  other: 'Autre',
};

/** At most 3 messages per sender address and 10 per client network an hour. */
export const CONTACT_RATE_LIMITS: { perEmail: RateLimitRule; perIp: RateLimitRule } = {
  perEmail: { limit: 3, windowSeconds: 3600 },
  perIp: { limit: 10, windowSeconds: 3600 },
};

/**
 * Stores and delivers one message. Throws AppError 'rejected' (honeypot filled), 'rate_limited'
 * (with retryAfterSeconds) or 'delivery_failed' (stored, with delivery_error, but not mailed).
 */
export async function submitContactMessage(
  deps: ContactDeps,
  input: ContactMessageInput,
  meta: { ip: string },
): Promise<{ id: string }> {
  return receive(deps, input, meta, {
    row: { kind: 'contact', subject: input.subject },
    subject: `[Galerie] ${SUBJECT_LABELS[input.subject]} — ${oneLine(input.name)}`,
    text: (id, now) => notificationText(id, input, now),
  });
}

/** "Ask about this work" (issue 25): the contact form's fields, about one work. */
export interface EnquiryInput {
  name: string;
  email: string;
  message: string;
  /** The work page's key (/oeuvres/<key>), as the page sent it. */
  work: string;
  website?: string | undefined;
  locale: 'fr' | 'en';
}

/** The work an enquiry is about, as the server found it. */
export interface EnquiryWork {
  id: number;
  key: string;
  slug: string;
  titleFr: string;
}

/**
 * Stores and delivers an enquiry about a work, exactly as a contact message: same honeypot, same
 * rate-limit buckets (a sender has one allowance for both forms), stored before it is mailed.
 * The work is found by its page key among the works on sale — 'not_found' otherwise; its title
 * comes from the database, never from the browser.
 */
export async function submitEnquiry(
  deps: ContactDeps,
  input: EnquiryInput,
  meta: { ip: string },
): Promise<{ id: string; work: EnquiryWork }> {
  const work = await findEnquiryWork(deps.db, input.work);
  // The honeypot and the limits are judged before the work: a bot learns nothing about the works.
  const { id } = await receive(deps, input, meta, {
    before: () => {
      if (!work) throw new AppError('not_found', { message: 'No such work on sale.' });
    },
    row: { kind: 'enquiry', artwork_id: work?.id ?? null, work_title: work?.titleFr ?? null },
    subject: `[Galerie] Demande sur « ${oneLine(work?.titleFr ?? '')} » — ${oneLine(input.name)}`,
    text: (rowId, now) => enquiryText(rowId, input, work!, now, deps.siteUrl ?? ''),
  });
  return { id, work: work! };
}

/**
 * A work on sale by its page key (src/lib/groups.ts: the original's slug without `-original`, a
 * print alone's without `-print`, or the whole slug when two stems meet); the original first.
 */
export async function findEnquiryWork(db: Database, key: string): Promise<EnquiryWork | null> {
  const row = await db
    .selectFrom('artworks')
    .select(['id', 'slug', 'title_fr', 'artwork_type'])
    .where('slug', 'in', [key, `${key}-original`, `${key}-print`])
    .where('is_available', '=', true)
    .where('archived_at', 'is', null)
    .orderBy(sql`artwork_type = 'original'`, 'desc')
    .orderBy(sql`slug = ${key}`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, key, slug: row.slug, titleFr: row.title_fr } : null;
}

interface Delivery {
  /** A refusal judged after the honeypot and the limits. */
  before?: () => void;
  row: {
    kind: 'contact' | 'enquiry';
    subject?: string;
    artwork_id?: number | null;
    work_title?: string | null;
  };
  subject: string;
  text: (id: string, receivedAt: Date) => string;
}

/**
 * The one path of every message (docs/decisions/042): honeypot, limits, stored, then mailed; a
 * failed mail leaves the stored row with its error, which the Messages screen still lists.
 */
async function receive(
  deps: ContactDeps,
  input: {
    name: string;
    email: string;
    message: string;
    website?: string | undefined;
    locale: 'fr' | 'en';
  },
  meta: { ip: string },
  delivery: Delivery,
): Promise<{ id: string }> {
  const { db, mailer } = deps;
  const now = timeOf(deps);
  if (input.website !== undefined && input.website.trim() !== '') throw new AppError('rejected');

  const ip = ipBucket(meta.ip);
  if (ip) await enforce(db, rateLimitKey('contact:ip', ip), CONTACT_RATE_LIMITS.perIp, now);
  const email = input.email.trim().toLowerCase();
  await enforce(db, rateLimitKey('contact:email', email), CONTACT_RATE_LIMITS.perEmail, now);
  delivery.before?.();

  const { id } = await db
    .insertInto('contact_messages')
    .values({
      ...delivery.row,
      name: input.name,
      email: input.email,
      message: input.message,
      locale: input.locale,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const settings = deps.settings ?? (await liveSettings(db));
  try {
    await mailer.send({
      to: settings.contact_email,
      from: { name: settings.site_title, address: noReplyAddress(settings.contact_email) },
      replyTo: { name: oneLine(input.name), address: input.email },
      subject: delivery.subject,
      text: delivery.text(id, now),
    });
  } catch (error) {
    const reason = errorText(error).slice(0, 1000);
    await db
      .updateTable('contact_messages')
      .set({ delivery_error: reason })
      .where('id', '=', id)
      .execute();
    // The visitor is told; the owner learns it from the log and the Messages screen.
    log.error(`Contact message ${id} stored but not delivered: ${reason}`);
    throw new AppError('delivery_failed', { cause: error });
  }
  await db
    .updateTable('contact_messages')
    .set({ delivered_at: new Date(), delivery_error: null })
    .where('id', '=', id)
    .execute();
  return { id };
}

async function enforce(db: Database, key: string, rule: RateLimitRule, now: Date): Promise<void> {
  const result = await hit(db, key, rule, now);
  if (!result.allowed)
    throw new AppError('rate_limited', { retryAfterSeconds: result.retryAfterSeconds });
}

/** When a message came, as the owner reads it: Paris time, not UTC (issue 26). */
function parisTime(at: Date): string {
  return `${formatParisDateTime('fr', at.toISOString())} (heure de Paris)`;
}

/**
 * The mail body: every field, plainly, for the owner to read and answer with "Reply" (French
 * spacing: a no-break space before each colon).
 */
export function notificationText(id: string, input: ContactMessageInput, receivedAt: Date): string {
  return [
    'Nouveau message reçu par le formulaire de contact du site.',
    '',
    `Nom\u00a0: ${oneLine(input.name)}`,
    `E-mail\u00a0: ${input.email}`,
    `Sujet\u00a0: ${SUBJECT_LABELS[input.subject]}`,
    `Langue\u00a0: ${input.locale === 'fr' ? 'français' : 'anglais'}`,
    `Reçu le\u00a0: ${parisTime(receivedAt)}`,
    `Référence\u00a0: ${id}`,
    '',
    'Message\u00a0:',
    '',
    input.message,
    '',
    '-- ',
    'Répondez à ce courriel pour écrire directement à la personne.',
  ].join('\n');
}

/** An enquiry's mail: the work named as the database has it, then the sender and the message. */
export function enquiryText(
  id: string,
  input: EnquiryInput,
  work: EnquiryWork,
  receivedAt: Date,
  siteUrl = '',
): string {
  return [
    'Nouvelle demande d’information sur une œuvre, reçue par le site.',
    '',
    `Œuvre\u00a0: ${work.titleFr} (${work.slug})`,
    `Page\u00a0: ${siteUrl}/oeuvres/${work.key}`,
    `Nom\u00a0: ${oneLine(input.name)}`,
    `E-mail\u00a0: ${input.email}`,
    `Langue\u00a0: ${input.locale === 'fr' ? 'français' : 'anglais'}`,
    `Reçu le\u00a0: ${parisTime(receivedAt)}`,
    `Référence\u00a0: ${id}`,
    '',
    'Message\u00a0:',
    '',
    input.message,
    '',
    '-- ',
    'Répondez à ce courriel pour écrire directement à la personne,',
    'ou retrouvez la demande dans le back-office, écran Messages.',
  ].join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** no-reply@ the gallery's own domain, so the sender matches the domain the mail is about. */
function noReplyAddress(contactEmail: string): string {
  const domain = contactEmail.split('@').pop();
  return domain ? `no-reply@${domain}` : 'no-reply@localhost';
}

/**
 * What the per-IP limit counts: the IPv4 address, or the /64 network of an IPv6 address (one
 * subscriber usually holds a whole /64). Empty when the address is unknown.
 */
export function ipBucket(ip: string): string {
  const address = ip.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return '';
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = [
    ...left,
    ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'),
    ...right,
  ];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
