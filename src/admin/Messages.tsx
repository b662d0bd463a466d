// The Messages screen (issue 25, docs/decisions/042): the contact form's messages and the enquiries
// about works, newest first, 20 a page, all or unread only. Each shows its work (a link to its
// page), sender, date in Paris time and read state; opening one marks it read, a button toggles it,
// and "Répondre" opens the owner's mail with the address and a subject in the sender's language.
// The address keeps the filter and the page; the first view comes from the server (messages.astro).
import { useEffect, useRef, useState } from 'react';
import {
  replyHref,
  type AdminMessage,
  type MessageFilter,
  type MessageList,
  type MessageListQuery,
} from '../schemas/admin-messages.ts';
import { adminCall } from './api.ts';
import { BUTTON, Banners, translator, type Banner, type Texts } from './ui/kit.tsx';

interface Props {
  query: MessageListQuery;
  /** null when the server could not read them: the error shows, 'Actualiser' tries again. */
  initial: MessageList | null;
  initialError: string;
  texts: Texts;
}

const EMPTY: MessageList = {
  messages: [],
  filter: 'all',
  page: 1,
  pages: 1,
  matching: 0,
  unread: 0,
};

/**
 * The gallery is in Paris: dates read the same on the server and in any browser ('26 nov. 2026 à
 * 16:05'), built from a day and a time so no ICU version's joining words differ at hydration.
 */
const PARIS_DAY = new Intl.DateTimeFormat('fr-FR', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Europe/Paris',
});
const PARIS_TIME = new Intl.DateTimeFormat('fr-FR', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/Paris',
});
const parisDate = (iso: string) =>
  `${PARIS_DAY.format(new Date(iso))} à ${PARIS_TIME.format(new Date(iso))}`;

/** Only what differs from the default view (all, page 1) goes into the address. */
export function messagesSearch(query: MessageListQuery): string {
  const params = new URLSearchParams();
  if (query.filter !== 'all') params.set('filter', query.filter);
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export default function Messages({ query: initialQuery, initial, initialError, texts }: Props) {
  const t = translator(texts);
  const [query, setQuery] = useState(initialQuery);
  const [data, setData] = useState<MessageList>(initial ?? EMPTY);
  const [loading, setLoading] = useState(false);
  const [banner, setBanner] = useState<Banner | null>(
    initial ? null : { tone: 'error', text: t('loadError', { message: initialError }) },
  );
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  // Filtering and paging quickly send several requests: only the latest settles the list.
  const generation = useRef(0);
  const first = useRef(true);

  async function load(next: MessageListQuery = query): Promise<void> {
    const ticket = ++generation.current;
    setLoading(true);
    const result = await adminCall<MessageList>(
      'GET',
      `/api/admin/messages${messagesSearch(next)}`,
    );
    if (ticket !== generation.current) return;
    setLoading(false);
    if (result.ok) {
      setData(result.data);
      setBanner(null);
      if (result.data.page !== next.page) setQuery((q) => ({ ...q, page: result.data.page }));
      return;
    }
    setData(EMPTY);
    setBanner({ tone: 'error', text: t('loadError', { message: result.error.message }) });
  }

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.history.replaceState(null, '', `${window.location.pathname}${messagesSearch(query)}`);
    void load(query);
  }, [query]);

  /** Sets the read state; the row changes at once and goes back if the server refuses. */
  async function setRead(message: AdminMessage, read: boolean): Promise<void> {
    const readAt = read ? (message.readAt ?? new Date().toISOString()) : null;
    const patch = (readAtValue: string | null, unreadDelta: number) =>
      setData((d) => ({
        ...d,
        unread: Math.max(0, d.unread + unreadDelta),
        messages: d.messages.map((m) => (m.id === message.id ? { ...m, readAt: readAtValue } : m)),
      }));
    const delta = read === (message.readAt !== null) ? 0 : read ? -1 : 1;
    patch(readAt, delta);
    const result = await adminCall<{ message: AdminMessage; unread: number }>(
      'PATCH',
      `/api/admin/messages/${message.id}`,
      { read },
    );
    if (result.ok) {
      setData((d) => ({
        ...d,
        unread: result.data.unread,
        messages: d.messages.map((m) => (m.id === message.id ? result.data.message : m)),
      }));
      return;
    }
    patch(message.readAt, -delta);
    setBanner({ tone: 'error', text: t('saveError', { message: result.error.message }) });
  }

  function toggleOpen(message: AdminMessage) {
    const opening = !open.has(message.id);
    setOpen((before) => {
      const next = new Set(before);
      if (opening) next.add(message.id);
      else next.delete(message.id);
      return next;
    });
    if (opening && message.readAt === null) void setRead(message, true);
  }

  const choose = (filter: MessageFilter) => setQuery({ filter, page: 1 });
  const number = (n: number) => new Intl.NumberFormat('fr-FR').format(n);
  const filters: [MessageFilter, string][] = [
    ['all', t('filter.all')],
    ['unread', t('filter.unread', { count: number(data.unread) })],
  ];

  return (
    <div className="space-y-5" aria-busy={loading || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          role="group"
          aria-label={t('filterLabel')}
          className="inline-flex rounded border border-black/20 bg-white p-0.5"
        >
          {filters.map(([filter, label]) => (
            <button
              key={filter}
              type="button"
              aria-pressed={query.filter === filter}
              onClick={() => choose(filter)}
              className="min-h-11 rounded px-4 text-sm hover:bg-black/5 aria-pressed:bg-ink aria-pressed:text-white"
            >
              {label}
            </button>
          ))}
        </div>
        <button type="button" className={BUTTON} disabled={loading} onClick={() => void load()}>
          {loading ? t('refreshing') : t('refresh')}
        </button>
      </div>

      <Banners banner={banner} />

      <p className="text-sm text-black/70" aria-live="polite">
        {data.matching === 1 ? t('countOne') : t('count', { count: number(data.matching) })}
      </p>

      {data.messages.length === 0 ? (
        !banner && (
          <div className="rounded-lg border border-black/10 bg-white p-8 text-center">
            <p className="font-serif text-xl">
              {query.filter === 'unread' ? t('emptyUnread') : t('empty')}
            </p>
          </div>
        )
      ) : (
        <ul className="space-y-3">
          {data.messages.map((message) => (
            <MessageItem
              key={message.id}
              message={message}
              t={t}
              expanded={open.has(message.id)}
              onToggle={() => toggleOpen(message)}
              onRead={(read) => void setRead(message, read)}
            />
          ))}
        </ul>
      )}

      {data.pages > 1 && (
        <nav aria-label={t('pagination')} className="flex items-center justify-center gap-3">
          <button
            type="button"
            className={BUTTON}
            disabled={data.page <= 1 || loading}
            onClick={() => setQuery((q) => ({ ...q, page: Math.max(1, data.page - 1) }))}
          >
            {t('previous')}
          </button>
          <p className="text-sm tabular-nums">
            {t('page', { page: data.page, pages: data.pages })}
          </p>
          <button
            type="button"
            className={BUTTON}
            disabled={data.page >= data.pages || loading}
            onClick={() => setQuery((q) => ({ ...q, page: Math.min(data.pages, data.page + 1) }))}
          >
            {t('next')}
          </button>
        </nav>
      )}
    </div>
  );
}

interface ItemProps {
  message: AdminMessage;
  t: ReturnType<typeof translator>;
  expanded: boolean;
  onToggle: () => void;
  onRead: (read: boolean) => void;
}

function MessageItem({ message, t, expanded, onToggle, onRead }: ItemProps) {
  const unread = message.readAt === null;
  const bodyId = `message-${message.id}`;
  const headingId = `message-${message.id}-from`;
  return (
    <li
      data-message={message.id}
      data-unread={unread || undefined}
      className={`rounded-lg border bg-white p-4 ${unread ? 'border-ink/60 shadow-[inset_4px_0_0_0_var(--color-ink)]' : 'border-black/10'}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <span
            className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${unread ? 'bg-ink text-white' : 'bg-black/5 text-black/75'}`}
          >
            {unread ? t('unread') : t('read')}
          </span>
          <span className="text-black/75">{t(`kind.${message.kind}`)}</span>
        </p>
        <p className="text-black/75 tabular-nums">
          <time dateTime={message.receivedAt}>{parisDate(message.receivedAt)}</time>
        </p>
      </div>
      <h2 id={headingId} className="mt-2 min-w-0 break-words">
        <span className={unread ? 'font-semibold' : 'font-medium'}>{message.name}</span>{' '}
        <span className="text-sm break-all text-black/75">&lt;{message.email}&gt;</span>
      </h2>
      {message.work ? (
        <p className="mt-1 text-sm">
          {t('work')}
          {message.work.href ? (
            <a
              href={message.work.href}
              className="font-medium underline decoration-black/30 underline-offset-4 hover:decoration-black"
            >
              {message.work.title}
            </a>
          ) : (
            <>
              <span className="font-medium">{message.work.title}</span>{' '}
              <span className="text-black/70">({t('workGone')})</span>
            </>
          )}
        </p>
      ) : (
        message.subject && (
          <p className="mt-1 text-sm">
            {t('subject')}
            <span className="font-medium">{message.subject}</span>
          </p>
        )
      )}
      {message.deliveryFailed && (
        <p className="mt-2 text-sm font-medium text-red-800">{t('deliveryFailed')}</p>
      )}
      <p
        id={bodyId}
        className={`mt-2 text-sm break-words whitespace-pre-line text-black/85 ${expanded ? '' : 'line-clamp-2'}`}
      >
        {message.message}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={BUTTON}
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          {expanded ? t('close') : t('open')}
        </button>
        <a
          href={replyHref(message)}
          className="inline-flex min-h-11 items-center justify-center rounded bg-ink px-4 text-sm font-medium text-white hover:bg-black"
        >
          {t('reply')}
          <span className="ml-1 font-normal opacity-80">({t(`replyIn.${message.locale}`)})</span>
        </a>
        <button type="button" className={BUTTON} onClick={() => onRead(unread)}>
          {unread ? t('markRead') : t('markUnread')}
        </button>
      </div>
    </li>
  );
}
