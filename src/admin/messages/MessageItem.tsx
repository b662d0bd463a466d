// One message on the Messages screen (issue 25): read state and kind, the date in Paris time (the
// kit's frenchDate, the same text on the server and in the browser), the sender, the work asked
// about (a link to its page while it is on the site) or the subject, the text — two lines until
// opened — and 'Lire' / 'Répondre' (the owner's mail, in the sender's language) / read or unread.
import { replyHref, type AdminMessage } from '../../schemas/admin-messages.ts';
import { frenchDate } from '../ui/format.ts';
import { BUTTON, INLINE_LINK, type Translate } from '../ui/kit.tsx';

interface ItemProps {
  message: AdminMessage;
  t: Translate;
  expanded: boolean;
  onToggle: () => void;
  onRead: (read: boolean) => void;
}

export default function MessageItem({ message, t, expanded, onToggle, onRead }: ItemProps) {
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
          <time dateTime={message.receivedAt}>{frenchDate(message.receivedAt)}</time>
        </p>
      </div>
      <h2 id={headingId} className="mt-2 min-w-0 break-words">
        <span className={unread ? 'font-semibold' : 'font-medium'}>{message.name}</span>{' '}
        <span className="block text-sm break-all text-black/75 sm:inline">
          &lt;{message.email}&gt;
        </span>
      </h2>
      {message.work ? (
        <p className="mt-1 text-sm">
          {t('work')}
          {message.work.href ? (
            <a
              href={message.work.href}
              className={`${INLINE_LINK} font-medium underline decoration-black/30 underline-offset-4 hover:decoration-black`}
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
