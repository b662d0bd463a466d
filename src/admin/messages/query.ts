// The Messages screen's server state (issue 25, issue 27): the list's query in the address, and
// the read/unread change — shown at once, put back if the server refuses, then the server's own
// answer (the message and the unread count) written into the list shown. The other pages and
// filters are marked stale without reading the one on screen again: a message opened from 'Non
// lus' stays in view, read, until the owner moves on.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type {
  AdminMessage,
  MessageList,
  MessageListQuery,
  MessageReadChange,
} from '../../schemas/admin-messages.ts';
import { adminFetch, adminKeys, useAdminMutation } from '../query.tsx';

/** Only what differs from the default view (all, page 1) goes into the address. */
export function messagesSearch(query: MessageListQuery): string {
  const params = new URLSearchParams();
  if (query.filter !== 'all') params.set('filter', query.filter);
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface ReadChange {
  message: AdminMessage;
  read: boolean;
  /** The list on screen, whose row changes. */
  list: QueryKey;
}

/** The list with one message replaced and the unread count changed. */
function patched(list: MessageList, message: AdminMessage, unread: number): MessageList {
  return {
    ...list,
    unread: Math.max(0, unread),
    messages: list.messages.map((m) => (m.id === message.id ? message : m)),
  };
}

export function useMarkRead() {
  const client = useQueryClient();
  return useAdminMutation<{ message: AdminMessage; unread: number }, ReadChange>({
    mutationFn: ({ message, read }) =>
      adminFetch('PATCH', `/api/admin/messages/${message.id}`, {
        read,
      } satisfies MessageReadChange),
    // The dashboard counts the unread messages.
    invalidates: [adminKeys.dashboard.all],
    onMutate: async ({ message, read, list }) => {
      await client.cancelQueries({ queryKey: list });
      const before = client.getQueryData<MessageList>(list);
      const delta = read === (message.readAt !== null) ? 0 : read ? -1 : 1;
      const readAt = read ? (message.readAt ?? new Date().toISOString()) : null;
      if (before)
        client.setQueryData(list, patched(before, { ...message, readAt }, before.unread + delta));
      return { before };
    },
    onError: (_error, { list }, context) => {
      const before = (context as { before?: MessageList } | undefined)?.before;
      if (before) client.setQueryData(list, before);
    },
    onSuccess: async ({ message, unread }, { list }) => {
      client.setQueryData<MessageList>(list, (shown) => shown && patched(shown, message, unread));
      await client.invalidateQueries({ queryKey: adminKeys.messages.all, refetchType: 'none' });
    },
  });
}
