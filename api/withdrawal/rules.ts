// The withdrawal rules as pure functions (docs/decisions/020): may this order still be withdrawn
// from, until when, and the statement the buyer makes. Directive 2011/83/EU art. 9(2)(b): 14 days
// from the day the buyer takes possession of the goods; Regulation 1182/71 art. 3: the day of
// delivery is not counted, the period ends at the end of its last day, and a last day falling on
// a Saturday or Sunday moves to the following Monday.
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import {
  formatParisDate,
  WITHDRAWAL_TIME_ZONE,
  type WithdrawalLine,
} from '../../src/schemas/withdrawal.ts';

export const WITHDRAWAL_PERIOD_DAYS = 14;

export interface WithdrawalOrderFacts {
  /** Fulfilment status (pending, confirmed, shipped, delivered, cancelled). */
  status: string;
  /** Payment status (unpaid, paid, refunded, failed, expired). */
  paymentStatus: string;
  paidAt: Date | null;
  shippedAt: Date | null;
  /** When the shop recorded the delivery (the owner set 'Livrée'), if it is known. */
  deliveredAt: Date | null;
  createdAt: Date;
}

export type WithdrawalDecision =
  /** Not a paid order: answered exactly like an unknown order (nothing to withdraw from). */
  | { kind: 'not_an_order' }
  /** Cancelled or refunded already. */
  | { kind: 'closed' }
  | { kind: 'period_over'; deadline: Date }
  /** `deadline` is null while the goods are not delivered: the period has not started. */
  | { kind: 'allowed'; deadline: Date | null };

/**
 * Whether the buyer may withdraw now. Until an order is marked delivered, always. Once it is, the
 * period runs from the delivery as the shop knows it: the moment the owner recorded it (never
 * before the real delivery, so never shorter than the law's period); failing that record, from
 * the shipment, else from the payment.
 */
export function withdrawalDecision(order: WithdrawalOrderFacts, now: Date): WithdrawalDecision {
  const paid = order.paymentStatus === Payment.paid || order.paymentStatus === Payment.refunded;
  if (!paid) return { kind: 'not_an_order' };
  if (order.paymentStatus === Payment.refunded || order.status === Fulfilment.cancelled)
    return { kind: 'closed' };
  if (order.status !== Fulfilment.delivered) return { kind: 'allowed', deadline: null };
  const start = order.deliveredAt ?? order.shippedAt ?? order.paidAt ?? order.createdAt;
  const deadline = periodEnd(start);
  return now.getTime() > deadline.getTime()
    ? { kind: 'period_over', deadline }
    : { kind: 'allowed', deadline };
}

/** The Paris calendar day of an instant, as y/m/d. */
function parisDay(instant: Date): { y: number; m: number; d: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: WITHDRAWAL_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { y: part('year'), m: part('month'), d: part('day') };
}

/** Minutes Paris is ahead of UTC at an instant (60 in winter, 120 in summer). */
function parisOffsetMinutes(instant: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: WITHDRAWAL_TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
  );
  return Math.round((asUtc - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
}

/** Midnight at the start of a Paris calendar day (day may overflow: Date.UTC normalises it). */
function parisMidnight(y: number, m: number, d: number): Date {
  const guess = Date.UTC(y, m - 1, d);
  return new Date(guess - parisOffsetMinutes(new Date(guess)) * 60_000);
}

/** The last millisecond of the period that starts the day after `start` (Paris days). */
export function periodEnd(start: Date): Date {
  const { y, m, d } = parisDay(start);
  let last = d + WITHDRAWAL_PERIOD_DAYS;
  const weekday = new Date(Date.UTC(y, m - 1, last)).getUTCDay();
  if (weekday === 6) last += 2;
  else if (weekday === 0) last += 1;
  return new Date(parisMidnight(y, m, last + 1).getTime() - 1);
}

// French punctuation keeps its space before ':' unbroken (U+00A0), so a colon never starts a line.
const STATEMENT = {
  fr: {
    notice:
      'Je notifie par la présente ma rétractation du contrat portant sur la vente des biens ci-dessous\u00a0:',
    original: 'œuvre originale',
    print: 'tirage d’art',
    quantity: (q: number) => `quantité ${q}`,
    ordered: (n: string, date: string) => `Commande n° ${n}, passée le ${date}.`,
    name: (name: string) => `Nom du consommateur\u00a0: ${name}`,
    email: (email: string) => `Adresse e-mail\u00a0: ${email}`,
    draft: (n: string) =>
      `Je notifie par la présente ma rétractation du contrat portant sur la vente des biens de la commande n° ${n}.`,
  },
  en: {
    notice: 'I hereby give notice that I withdraw from my contract of sale of the following goods:',
    original: 'original artwork',
    print: 'fine-art print',
    quantity: (q: number) => `quantity ${q}`,
    ordered: (n: string, date: string) => `Order no. ${n}, placed on ${date}.`,
    name: (name: string) => `Name of consumer: ${name}`,
    email: (email: string) => `Email address: ${email}`,
    draft: (n: string) =>
      `I hereby give notice that I withdraw from my contract of sale of the goods of order no. ${n}.`,
  },
} as const;

/**
 * The buyer's statement (model withdrawal form, Directive 2011/83/EU Annex I(B)): the notice, the
 * goods, the order and its date, the consumer. Shown before confirming and kept as confirmed.
 */
export function withdrawalStatement(
  locale: 'fr' | 'en',
  order: {
    orderNumber: string;
    orderedAt: string;
    lines: readonly WithdrawalLine[];
    name: string;
    email: string;
  },
): string {
  const s = STATEMENT[locale];
  const goods = order.lines.map((line) => {
    const kind = line.type === 'original' ? s.original : s.print;
    const detail = line.quantity > 1 ? `${kind}, ${s.quantity(line.quantity)}` : kind;
    return `- ${line.title} (${detail})`;
  });
  return [
    s.notice,
    ...goods,
    s.ordered(order.orderNumber, formatParisDate(locale, order.orderedAt)),
    s.name(order.name.replace(/\s+/g, ' ').trim()),
    s.email(order.email),
  ].join('\n');
}

/**
 * The statement as a visitor who is not the order's signed-in buyer reviews it: built from what
 * they typed only, so that showing it reveals nothing about the order (issue 24, break 1). The
 * statement kept with the order is the full one, built when it is sent.
 */
export function draftStatement(
  locale: 'fr' | 'en',
  typed: { orderNumber: string; email: string },
): string {
  const s = STATEMENT[locale];
  return [s.draft(typed.orderNumber), s.email(typed.email)].join('\n');
}
