// The mail a buyer gets when the owner cancels their paid order (issue 26), in the language the
// order was placed in: the order and its works, whether and how much was refunded, the credit
// note (attached as a PDF, and its signed link that works without an account) and the seller's
// identity. HTML with a plain-text alternative, from the same parts (api/mail/compose.ts).
// The refund of some of an order's works (issue 27 §3) is told the same way: the works refunded,
// the amount, their credit note; the rest of the order stands.
import { formatMoney } from '../../src/domain/money.ts';
import type { OrderSummary } from '../orders/index.ts';
import type { SiteSettings } from '../settings/index.ts';
import { siteTitle } from '../../src/schemas/settings.ts';
import { composeMail, type MailPart } from './compose.ts';
import type { MailMessage } from './index.ts';
import { linkTo } from './links.ts';
import { lineDetail, type MailedDocument } from './orders.ts';
import { sellerLines } from './seller.ts';

type Locale = 'fr' | 'en';

/** A work refunded on its own, as the mail lists it. */
export type RefundedLine = OrderSummary['lines'][number];

export interface CancellationContext {
  /** What the buyer was refunded, in cents; null when the cancellation refunded nothing. */
  refundedCents: number | null;
  creditNote?: MailedDocument | null;
  /** The order is cancelled because the buyer withdrew from it. */
  withdrawal?: boolean;
}

const NBSP = '\u00a0';

const TEXT = {
  fr: {
    subject: (n: string) => `Annulation de votre commande ${n}`,
    hello: (name: string) => `Bonjour ${name},`,
    cancelled: (n: string) => `Votre commande ${n} a été annulée par la galerie.`,
    withdrawn: (n: string) => `Suite à votre rétractation, votre commande ${n} est annulée.`,
    refunded: (amount: string) =>
      `Nous vous avons remboursé ${amount} sur le moyen de paiement utilisé pour la commande. Selon votre banque, le montant apparaît sur votre compte sous 5 à 10 jours ouvrés.`,
    notRefunded:
      'Cette annulation ne s’accompagne pas d’un remboursement par la boutique. Si vous avez une question sur votre paiement, répondez à ce message.',
    works: 'Œuvres de la commande',
    creditTitle: 'Votre avoir',
    creditAttached: (n: string) =>
      `L’avoir ${n}, qui annule la facture de la commande, est joint à ce message (PDF). Il reste téléchargeable par ce lien, sans compte${NBSP}:`,
    creditLinkOnly: (n: string) =>
      `L’avoir ${n}, qui annule la facture de la commande, est téléchargeable par ce lien, sans compte${NBSP}:`,
    sellerTitle: 'Le vendeur',
    questions: (email: string) =>
      `Une question${NBSP}? Répondez à ce message ou écrivez à ${email}.`,
    partSubject: (n: string) => `Remboursement partiel de votre commande ${n}`,
    partRefunded: (amount: string, n: string) =>
      `La galerie vous a remboursé ${amount} pour les œuvres ci-dessous de votre commande ${n}, sur le moyen de paiement utilisé pour la commande. Selon votre banque, le montant apparaît sur votre compte sous 5 à 10 jours ouvrés.`,
    partWorks: 'Œuvres remboursées',
    partTotal: 'Montant remboursé',
    partRest: 'Le reste de votre commande est maintenu.',
    partCredit: (n: string, attached: boolean) =>
      attached
        ? `L’avoir ${n}, qui porte sur ces œuvres, est joint à ce message (PDF). Il reste téléchargeable par ce lien, sans compte${NBSP}:`
        : `L’avoir ${n}, qui porte sur ces œuvres, est téléchargeable par ce lien, sans compte${NBSP}:`,
  },
  en: {
    subject: (n: string) => `Your order ${n} has been cancelled`,
    hello: (name: string) => `Hello ${name},`,
    cancelled: (n: string) => `Your order ${n} has been cancelled by the gallery.`,
    withdrawn: (n: string) => `Following your withdrawal, your order ${n} is cancelled.`,
    refunded: (amount: string) =>
      `We have refunded ${amount} to the means of payment used for the order. Depending on your bank, it shows on your account within 5 to 10 business days.`,
    notRefunded:
      'This cancellation comes with no refund from the shop. If you have a question about your payment, reply to this message.',
    works: 'Works of the order',
    creditTitle: 'Your credit note',
    creditAttached: (n: string) =>
      `Credit note ${n}, which cancels the order’s invoice, is attached to this message (PDF). You can also download it from this link, without an account:`,
    creditLinkOnly: (n: string) =>
      `You can download credit note ${n}, which cancels the order’s invoice, from this link, without an account:`,
    sellerTitle: 'The seller',
    questions: (email: string) => `Any question? Reply to this message or write to ${email}.`,
    partSubject: (n: string) => `Part of your order ${n} has been refunded`,
    partRefunded: (amount: string, n: string) =>
      `The gallery has refunded ${amount} for the works of your order ${n} listed below, to the means of payment used for the order. Depending on your bank, it shows on your account within 5 to 10 business days.`,
    partWorks: 'Works refunded',
    partTotal: 'Amount refunded',
    partRest: 'The rest of your order stands.',
    partCredit: (n: string, attached: boolean) =>
      attached
        ? `Credit note ${n}, for these works, is attached to this message (PDF). You can also download it from this link, without an account:`
        : `You can download credit note ${n}, for these works, from this link, without an account:`,
  },
} as const;

export function cancellationMail(
  order: OrderSummary,
  settings: SiteSettings,
  context: CancellationContext,
): MailMessage {
  const locale: Locale = order.locale;
  const t = TEXT[locale];
  const m = (cents: number) => formatMoney(cents, order.currency, locale);
  const note = context.creditNote ?? null;
  const parts: MailPart[] = [
    { p: t.hello(order.name) },
    { p: context.withdrawal ? t.withdrawn(order.number) : t.cancelled(order.number) },
    {
      p:
        context.refundedCents !== null && context.refundedCents > 0
          ? t.refunded(m(context.refundedCents))
          : t.notRefunded,
    },
    { heading: t.works },
    {
      lines: order.lines.map((l) => ({
        title: l.title,
        detail: lineDetail(l, locale),
        amount: m(l.unitPriceCents * l.quantity),
      })),
    },
    ...(note
      ? [
          { heading: t.creditTitle },
          { p: note.pdf ? t.creditAttached(note.number) : t.creditLinkOnly(note.number) },
          linkTo('creditNote', locale, note.url),
        ]
      : []),
  ];
  return closing(order, settings, t.subject(order.number), parts, note);
}

/** The refund of some of the order's works (issue 27 §3): what was refunded, its credit note. */
export function partialRefundMail(
  order: OrderSummary,
  settings: SiteSettings,
  context: {
    refundedCents: number;
    lines: readonly RefundedLine[];
    creditNote: MailedDocument | null;
  },
): MailMessage {
  const locale: Locale = order.locale;
  const t = TEXT[locale];
  const m = (cents: number) => formatMoney(cents, order.currency, locale);
  const note = context.creditNote;
  const parts: MailPart[] = [
    { p: t.hello(order.name) },
    { p: t.partRefunded(m(context.refundedCents), order.number) },
    { heading: t.partWorks },
    {
      lines: context.lines.map((l) => ({
        title: l.title,
        detail: lineDetail(l, locale),
        amount: m(l.unitPriceCents * l.quantity),
      })),
    },
    { totals: [{ label: t.partTotal, amount: m(context.refundedCents), strong: true }] },
    { p: t.partRest },
    ...(note
      ? [
          { heading: t.creditTitle },
          { p: t.partCredit(note.number, note.pdf !== null) },
          linkTo('creditNote', locale, note.url),
        ]
      : []),
  ];
  return closing(order, settings, t.partSubject(order.number), parts, note);
}

/** The seller, the questions line, and the message around the parts (credit note attached). */
function closing(
  order: OrderSummary,
  settings: SiteSettings,
  subject: string,
  parts: MailPart[],
  note: MailedDocument | null,
): MailMessage {
  const locale: Locale = order.locale;
  const t = TEXT[locale];
  return {
    to: { name: order.name, address: order.email },
    from: { name: siteTitle(settings, locale), address: settings.contact_email },
    subject,
    ...composeMail(
      locale,
      [
        ...parts,
        { block: { heading: t.sellerTitle, lines: sellerLines(settings, locale) } },
        { p: t.questions(settings.contact_email) },
      ],
      siteTitle(settings, locale),
    ),
    ...(note?.pdf ? { attachments: [note.pdf] } : {}),
  };
}
