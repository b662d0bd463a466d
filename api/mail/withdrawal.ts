// The mails of a withdrawal (docs/decisions/020): the buyer's confirmation on a durable medium —
// the statement as recorded, the order and its works, the date and time of the withdrawal in
// Paris time — in the language of the page they withdrew on; and the gallery's notice, in French,
// saying what the owner must do to complete it. HTML with a plain-text alternative.
import type { SiteSettings } from '../settings/index.ts';
import {
  formatParisDate,
  formatParisDateTime,
  type WithdrawalLine,
} from '../../src/schemas/withdrawal.ts';
import { composeMail, type MailPart } from './compose.ts';
import type { MailMessage } from './index.ts';

type Locale = 'fr' | 'en';

export interface WithdrawalMailData {
  orderNumber: string;
  orderedAt: string;
  lines: readonly WithdrawalLine[];
  statement: string;
  requestedAt: string;
  name: string;
  email: string;
  locale: Locale;
}

/** Directive 2011/83/EU art. 13(1): reimbursement at the latest 14 days after the withdrawal. */
const REFUND_DAYS = 14;

const TEXT = {
  fr: {
    subject: (n: string) => `Confirmation de votre rétractation — commande ${n}`,
    hello: (name: string) => `Bonjour ${name},`,
    received: (when: string) =>
      `Nous avons bien reçu votre rétractation le ${when} (heure de Paris). Ce message la confirme ; conservez-le.`,
    withdrawalTitle: 'Votre rétractation',
    statementTitle: 'Votre déclaration',
    dateLabel: 'Date et heure de la rétractation',
    orderTitle: (n: string) => `Commande ${n}`,
    orderedOn: (date: string) => `Passée le ${date}.`,
    original: 'Œuvre originale',
    print: 'Tirage d’art',
    quantity: (q: number) => `quantité ${q}`,
    nextTitle: 'Et maintenant ?',
    next: [
      'La galerie vous écrit pour organiser le retour des œuvres, à renvoyer au plus tard 14 jours après votre rétractation.',
      'Tous les paiements reçus, frais de livraison compris, vous sont remboursés au plus tard 14 jours après votre rétractation, par le moyen de paiement utilisé pour la commande. Le remboursement peut attendre le retour des œuvres.',
    ],
    questions: (email: string) => `Une question ? Répondez à ce message ou écrivez à ${email}.`,
  },
  en: {
    subject: (n: string) => `Your withdrawal from order ${n} is confirmed`,
    hello: (name: string) => `Hello ${name},`,
    received: (when: string) =>
      `We received your withdrawal on ${when} (Paris time). This message confirms it; please keep it.`,
    withdrawalTitle: 'Your withdrawal',
    statementTitle: 'Your statement',
    dateLabel: 'Date and time of withdrawal',
    orderTitle: (n: string) => `Order ${n}`,
    orderedOn: (date: string) => `Placed on ${date}.`,
    original: 'Original artwork',
    print: 'Fine-art print',
    quantity: (q: number) => `quantity ${q}`,
    nextTitle: 'What happens next?',
    next: [
      'The gallery will write to you to arrange the return of the works, to be sent back within 14 days of your withdrawal.',
      'Every payment received, delivery costs included, is refunded within 14 days of your withdrawal, to the means of payment used for the order. The refund may wait until the works are back.',
    ],
    questions: (email: string) => `Any question? Reply to this message or write to ${email}.`,
  },
} as const;

function statementLines(statement: string): string[] {
  return statement.split('\n');
}

function worksList(locale: Locale, lines: readonly WithdrawalLine[]): string[] {
  const t = TEXT[locale];
  return lines.map(
    (l) =>
      `${l.title} — ${l.type === 'original' ? t.original : t.print}${l.quantity > 1 ? `, ${t.quantity(l.quantity)}` : ''}`,
  );
}

export function withdrawalConfirmationMail(
  data: WithdrawalMailData,
  settings: SiteSettings,
): MailMessage {
  const t = TEXT[data.locale];
  const when = formatParisDateTime(data.locale, data.requestedAt);
  const parts: MailPart[] = [
    { p: t.hello(data.name) },
    { p: t.received(when) },
    { heading: t.withdrawalTitle },
    { block: { heading: t.dateLabel, lines: [`${when} (Europe/Paris)`] } },
    { block: { heading: t.statementTitle, lines: statementLines(data.statement) } },
    { heading: t.orderTitle(data.orderNumber) },
    { p: t.orderedOn(formatParisDate(data.locale, data.orderedAt)) },
    { list: worksList(data.locale, data.lines) },
    { heading: t.nextTitle },
    { list: t.next },
    { p: t.questions(settings.contact_email) },
  ];
  return {
    to: { name: data.name, address: data.email },
    from: { name: settings.site_title, address: settings.contact_email },
    subject: t.subject(data.orderNumber),
    ...composeMail(data.locale, parts, settings.site_title),
  };
}

/** The owner's notice (back office in French): who withdrew from what, and what to do now. */
export function galleryWithdrawalNotification(
  data: WithdrawalMailData,
  settings: SiteSettings,
  buyerMailed: boolean,
): MailMessage {
  const when = formatParisDateTime('fr', data.requestedAt);
  const refundBy = formatParisDate(
    'fr',
    new Date(Date.parse(data.requestedAt) + REFUND_DAYS * 86_400_000).toISOString(),
  );
  const parts: MailPart[] = [
    {
      p: `${data.name} <${data.email}> s’est rétracté(e) de la commande ${data.orderNumber} le ${when} (heure de Paris), depuis le site en ${data.locale === 'fr' ? 'français' : 'anglais'}.`,
    },
    { heading: 'Œuvres concernées' },
    { list: worksList('fr', data.lines) },
    { block: { heading: 'Déclaration du client', lines: statementLines(data.statement) } },
    { heading: 'À faire' },
    {
      list: [
        'Convenir avec le client du retour des œuvres (répondez à ce message pour lui écrire).',
        'Dans le back office : « Commandes » → la commande → statut « Annulée », avec le remboursement (et la remise en vente si les œuvres reviennent).',
        `Rembourser au plus tard le ${refundBy} (14 jours après la rétractation) ; le remboursement peut attendre le retour des œuvres.`,
      ],
    },
    {
      p: `La commande porte la mention « Rétractation demandée » dans la liste des commandes. ${
        buyerMailed
          ? 'Le client a reçu une confirmation par e-mail.'
          : 'Attention : la confirmation n’a pas pu être envoyée au client ; envoyez-lui cette déclaration vous-même.'
      }`,
    },
  ];
  return {
    to: settings.contact_email,
    from: { name: settings.site_title, address: settings.contact_email },
    replyTo: { name: data.name, address: data.email },
    subject: `[Galerie] Rétractation demandée — commande ${data.orderNumber}`,
    ...composeMail('fr', parts, settings.site_title),
  };
}
