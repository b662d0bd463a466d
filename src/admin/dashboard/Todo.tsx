// The dashboard's to-do list (issue 27 §4): what waits for the owner first, each line a link to
// the screen where it is done; what is done stays listed, quieter, ticked.
import type { ReactNode } from 'react';
import type { Dashboard } from '../../schemas/dashboard.ts';
import type { Translate } from '../ui/kit.tsx';
import { messagesHref, orderHref, toShipHref } from './links.ts';
import Section from '../ui/Section.tsx';

interface Item {
  key: string;
  href: string;
  label: string;
  hint?: string | undefined;
  /** How many wait (shown in the badge); 0 = done. */
  count: number;
  /** Extra attributes tests and styles read. */
  data?: Record<string, string | number>;
}

function plural(t: Translate, base: string, count: number): string {
  if (count === 0) return t(`${base}.none`);
  return count === 1 ? t(`${base}.one`) : t(`${base}.many`, { count });
}

export function todoItems(data: Dashboard, t: Translate): Item[] {
  const items: Item[] = [
    {
      key: 'ship',
      href: toShipHref(data),
      label: plural(t, 'todo.ship', data.awaitingShipment),
      count: data.awaitingShipment,
      data: { 'data-todo': 'ship' },
    },
    ...(data.withdrawals.length > 0
      ? data.withdrawals.map((w) => ({
          key: `withdrawal-${w.id}`,
          href: orderHref(w.number),
          label: t('todo.withdrawal', { number: w.number }),
          hint: t('todo.withdrawal.hint'),
          count: 1,
          data: { 'data-todo': 'withdrawal' },
        }))
      : [
          {
            key: 'withdrawal',
            href: '/admin/orders',
            label: t('todo.withdrawal.none'),
            count: 0,
            data: { 'data-todo': 'withdrawal' },
          },
        ]),
    {
      key: 'messages',
      href: messagesHref(data.unreadMessages),
      label: plural(t, 'messages', data.unreadMessages),
      count: data.unreadMessages,
      // Issue 25's test reads the count here.
      data: { 'data-todo': 'messages', 'data-unread-messages': data.unreadMessages },
    },
    {
      key: 'legal',
      href: '/admin/settings',
      label: data.legalMissing.length ? t('legal.title') : t('todo.legal.done'),
      hint: data.legalMissing.length
        ? t('todo.legal.missing', { fields: data.legalMissing.join(', ') })
        : undefined,
      count: data.legalMissing.length,
      data: { 'data-todo': 'legal', 'data-legal-missing': data.legalMissing.join('|') },
    },
    {
      key: 'second-factor',
      href: '/admin/security',
      label: data.secondFactorOn ? t('todo.secondFactor.done') : t('secondFactor.title'),
      hint: data.secondFactorOn ? undefined : t('todo.secondFactor.hint'),
      count: data.secondFactorOn ? 0 : 1,
      data: { 'data-todo': 'second-factor' },
    },
  ];
  // What waits first; the order among each kind stays the one above.
  return [...items.filter((i) => i.count > 0), ...items.filter((i) => i.count === 0)];
}

function Badge({ count, done }: { count: number; done: string }): ReactNode {
  if (count === 0)
    return (
      <span className="inline-flex size-7 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-emerald-800">
        <svg viewBox="0 0 16 16" className="size-4" aria-hidden="true">
          <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
        <span className="sr-only">{done}</span>
      </span>
    );
  return (
    <span
      aria-hidden="true"
      className="inline-flex h-7 min-w-7 shrink-0 items-center justify-center rounded-full bg-ink px-2 text-sm font-medium text-white tabular-nums"
    >
      {count}
    </span>
  );
}

export function Todo({ data, t }: { data: Dashboard; t: Translate }) {
  const items = todoItems(data, t);
  return (
    <Section id="todo-title" title={t('todo.title')}>
      <ul className="mt-3 divide-y divide-black/10 overflow-hidden rounded-lg border border-black/10 bg-white">
        {items.map((item) => (
          <li key={item.key} data-done={item.count === 0 || undefined}>
            <a
              href={item.href}
              {...item.data}
              className="group flex min-h-14 items-center gap-3 px-4 py-2 hover:bg-black/[0.04] focus-visible:outline-offset-[-2px]"
            >
              <Badge count={item.count} done={t('todo.done')} />
              <span className="min-w-0 flex-1">
                <span
                  className={`block underline-offset-4 group-hover:underline ${
                    item.count > 0 ? 'font-medium' : 'text-black/70'
                  }`}
                >
                  {item.label}
                </span>
                {item.hint && <span className="block text-sm text-black/70">{item.hint}</span>}
              </span>
              <span aria-hidden="true" className="text-black/50">
                →
              </span>
            </a>
          </li>
        ))}
      </ul>
    </Section>
  );
}
