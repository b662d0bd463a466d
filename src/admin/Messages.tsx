// The Messages screen (issue 25, docs/decisions/042): the contact form's messages and the enquiries
// about works, newest first, 20 a page, all or unread only. Each shows its work (a link to its
// page), sender, date in Paris time and read state; opening one marks it read, a button toggles it,
// and "Répondre" opens the owner's mail with the address and a subject in the sender's language.
// The list is on the query cache (src/admin/ui/paged-list.ts): the address keeps the filter and the
// page, the first view comes from the server (messages.astro), an older answer never replaces a
// newer one.
import { useState } from 'react';
import type {
  AdminMessage,
  MessageFilter,
  MessageList,
  MessageListQuery,
} from '../schemas/admin-messages.ts';
import MessageItem from './messages/MessageItem.tsx';
import { messagesSearch, useMarkRead } from './messages/query.ts';
import { adminKeys, errorMessage, withAdminQuery } from './query.tsx';
import { Banners, translator, type Banner, EmptyState, RefreshButton } from './ui/kit.tsx';
import Pager from './ui/Pager.tsx';
import ToggleGroup from './ui/ToggleGroup.tsx';
import { usePagedList, type ListScreenProps } from './ui/paged-list.ts';

const EMPTY: MessageList = {
  messages: [],
  filter: 'all',
  page: 1,
  pages: 1,
  matching: 0,
  unread: 0,
};
const number = (n: number) => new Intl.NumberFormat('fr-FR').format(n);

function Messages(props: ListScreenProps<MessageListQuery, MessageList>) {
  const t = translator(props.texts);
  const { query, setQuery, toPage, list, failure, data, busy } = usePagedList(
    {
      keys: adminKeys.messages,
      endpoint: '/api/admin/messages',
      searchOf: messagesSearch,
      empty: EMPTY,
    },
    props,
  );
  const markRead = useMarkRead();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  const banner: Banner | null = failure
    ? { tone: 'error', text: t('loadError', { message: failure }) }
    : markRead.isError
      ? { tone: 'error', text: t('saveError', { message: errorMessage(markRead.error) }) }
      : null;

  const setRead = (message: AdminMessage, read: boolean) =>
    markRead.mutate({ message, read, list: adminKeys.messages.list(query) });

  function toggleOpen(message: AdminMessage) {
    const opening = !open.has(message.id);
    setOpen((before) => {
      const next = new Set(before);
      if (opening) next.add(message.id);
      else next.delete(message.id);
      return next;
    });
    if (opening && message.readAt === null) setRead(message, true);
  }

  const filters: [MessageFilter, string][] = [
    ['all', t('filter.all')],
    ['unread', t('filter.unread', { count: number(data.unread) })],
  ];

  return (
    <div className="space-y-5" aria-busy={busy || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <ToggleGroup
          label={t('filterLabel')}
          options={filters}
          value={query.filter}
          onChoose={(filter) => setQuery({ filter, page: 1 })}
          className="inline-flex rounded border border-black/20 bg-white p-0.5"
          buttonClassName="min-h-11 rounded px-4 text-sm hover:bg-black/5 aria-pressed:bg-ink aria-pressed:text-white"
        />
        <RefreshButton t={t} busy={busy} onRefresh={() => void list.refetch()} />
      </div>

      <Banners banner={banner} />

      <p className="text-sm text-black/70" aria-live="polite">
        {data.matching === 1 ? t('countOne') : t('count', { count: number(data.matching) })}
      </p>

      {data.messages.length === 0 ? (
        !failure && <EmptyState title={query.filter === 'unread' ? t('emptyUnread') : t('empty')} />
      ) : (
        <ul className="space-y-3">
          {data.messages.map((message) => (
            <MessageItem
              key={message.id}
              message={message}
              t={t}
              expanded={open.has(message.id)}
              onToggle={() => toggleOpen(message)}
              onRead={(read) => setRead(message, read)}
            />
          ))}
        </ul>
      )}

      <Pager t={t} page={data.page} pages={data.pages} busy={busy} onPage={toPage} />
    </div>
  );
}

export default withAdminQuery(Messages);
