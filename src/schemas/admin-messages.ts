// The Messages screen's shapes (issue 25, docs/decisions/042): the list's query, one message as the
// screen shows it, a page of them with the counts, and the read/unread change. The island imports
// only types and constants from here.
import { z } from 'zod';

/** Messages per page: the screen's list is paged on the server, never read whole. */
export const MESSAGES_PAGE_SIZE = 20;
export const MESSAGE_FILTERS = ['all', 'unread'] as const;
export type MessageFilter = (typeof MESSAGE_FILTERS)[number];

/** GET /api/admin/messages?filter=&page= (page from 1); a bad parameter falls back to its default. */
export const messageListQuerySchema = z.object({
  filter: z.enum(MESSAGE_FILTERS).catch('all'),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type MessageListQuery = z.infer<typeof messageListQuerySchema>;

/** PATCH /api/admin/messages/:id: read or unread again. */
export const messageReadSchema = z.strictObject({ read: z.boolean() });
export type MessageReadChange = z.infer<typeof messageReadSchema>;

export interface AdminMessage {
  id: string;
  kind: 'contact' | 'enquiry';
  /** When the site received it (ISO 8601). */
  receivedAt: string;
  /** When the owner read it (ISO 8601), null while unread. */
  readAt: string | null;
  name: string;
  email: string;
  /** The visitor's language: the reply is written in it. */
  locale: 'fr' | 'en';
  /** A contact message's subject, in French; null for an enquiry. */
  subject: string | null;
  message: string;
  /** The work an enquiry is about: its title as it was, and its page while it is on the site. */
  work: { title: string; href: string | null } | null;
  /** The mail to the gallery failed: the message exists only here. */
  deliveryFailed: boolean;
  /** The subject of a reply, in the visitor's language (the mailto link's). */
  replySubject: string;
}

export interface MessageList {
  messages: AdminMessage[];
  filter: MessageFilter;
  page: number;
  pages: number;
  /** Messages matching the filter. */
  matching: number;
  /** Unread messages in all (the dashboard's figure, the filter's count). */
  unread: number;
}

/** The `mailto:` link of "Répondre": the sender's address and the subject prefilled. */
export function replyHref(message: Pick<AdminMessage, 'email' | 'replySubject'>): string {
  return `mailto:${encodeURIComponent(message.email).replace(/%40/g, '@')}?subject=${encodeURIComponent(message.replySubject)}`;
}
