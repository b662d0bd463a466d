// The mails of a withdrawal (docs/decisions/020 and 039), HTML with a plain-text alternative:
// - the acknowledgement of a statement sent from the form (a durable medium: the statement, its
//   date and time in Paris time, the order and its works), with the link that confirms it and the
//   one that says "this was not me" — only the order's mailbox gets it;
// - the answer to a statement that cannot be taken (period over, order closed), to the same box;
// - the buyer's confirmation once the withdrawal is confirmed, in the language of the page they
//   withdrew on; and the gallery's notice, in French, saying what the owner must do.
import type { SiteSettings } from '../settings/index.ts';
import { siteTitle } from '../../src/schemas/settings.ts';
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
      `Nous avons bien reçu votre rétractation le ${when} (heure de Paris). Ce message la confirme\u00a0; conservez-le.`,
    withdrawalTitle: 'Votre rétractation',
    statementTitle: 'Votre déclaration',
    dateLabel: 'Date et heure de la rétractation',
    orderTitle: (n: string) => `Commande ${n}`,
    orderedOn: (date: string) => `Passée le ${date}.`,
    original: 'Œuvre originale',
    print: 'Tirage d’art',
    quantity: (q: number) => `quantité ${q}`,
    nextTitle: 'Et maintenant\u00a0?',
    next: [
      'La galerie vous écrit pour organiser le retour des œuvres, à renvoyer au plus tard 14 jours après votre rétractation.',
      'Tous les paiements reçus, frais de livraison compris, vous sont remboursés au plus tard 14 jours après votre rétractation, par le moyen de paiement utilisé pour la commande. Le remboursement peut attendre le retour des œuvres.',
    ],
    questions: (email: string) =>
      `Une question\u00a0? Répondez à ce message ou écrivez à ${email}.`,
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

const ACK = {
  fr: {
    subject: (n: string) => `Votre déclaration de rétractation — commande ${n}`,
    received: (when: string) =>
      `Nous avons reçu le ${when} (heure de Paris) une déclaration de rétractation pour votre commande, envoyée depuis notre page de rétractation avec le numéro de la commande et votre adresse e-mail. Ce message en accuse réception\u00a0; conservez-le.`,
    confirmTitle: 'Confirmez-la',
    confirm:
      'Pour que nous la traitions, confirmez que cette déclaration vient bien de vous. Votre rétractation gardera la date et l’heure ci-dessus, même si vous confirmez plus tard.',
    confirmLabel: 'Confirmer ma rétractation',
    notMeTitle: 'Ce n’était pas vous\u00a0?',
    notMe:
      'Quelqu’un connaissant le numéro de votre commande et votre adresse l’a peut-être envoyée. Dites-le-nous\u00a0: la déclaration sera écartée et votre commande reste inchangée.',
    notMeLabel: 'Ce n’était pas moi',
    expires: (date: string) => `Ces liens sont valables jusqu’au ${date}.`,
  },
  en: {
    subject: (n: string) => `Your withdrawal statement — order ${n}`,
    received: (when: string) =>
      `On ${when} (Paris time) we received a statement of withdrawal for your order, sent from our withdrawal page with the order number and your email address. This message acknowledges it; please keep it.`,
    confirmTitle: 'Confirm it',
    confirm:
      'For us to act on it, confirm that this statement comes from you. Your withdrawal keeps the date and time above, even if you confirm later.',
    confirmLabel: 'Confirm my withdrawal',
    notMeTitle: 'Was it not you?',
    notMe:
      'Someone who knows your order number and your address may have sent it. Tell us: the statement will be set aside and your order stays as it is.',
    notMeLabel: 'This was not me',
    expires: (date: string) => `These links are valid until ${date}.`,
  },
} as const;

const REFUSED = {
  fr: {
    subject: (n: string) => `Votre demande de rétractation — commande ${n}`,
    received:
      'Une déclaration de rétractation pour votre commande a été envoyée depuis notre page de rétractation, avec le numéro de la commande et votre adresse e-mail. Elle ne peut pas être prise en compte en ligne\u00a0:',
    periodOver: (date: string) =>
      `le délai de rétractation de cette commande a pris fin le ${date}.`,
    closed: 'cette commande est déjà annulée ou remboursée.',
    contact: (email: string) =>
      `Si vous pensez qu’il s’agit d’une erreur, répondez à ce message ou écrivez à ${email}. Si vous n’avez rien demandé, ignorez ce message\u00a0: votre commande reste inchangée.`,
  },
  en: {
    subject: (n: string) => `Your withdrawal request — order ${n}`,
    received:
      'A statement of withdrawal for your order was sent from our withdrawal page, with the order number and your email address. It cannot be taken online:',
    periodOver: (date: string) => `the withdrawal period for this order ended on ${date}.`,
    closed: 'this order is already cancelled or refunded.',
    contact: (email: string) =>
      `If you believe this is a mistake, reply to this message or write to ${email}. If you asked for nothing, ignore this message: your order stays as it is.`,
  },
} as const;

export interface WithdrawalAcknowledgementData extends WithdrawalMailData {
  confirmUrl: string;
  disownUrl: string;
  /** When the links stop working (ISO 8601). */
  expiresAt: string;
}

/**
 * The acknowledgement of a statement sent from the form, to the order's address only: what was
 * received and when, and the two links. Nothing in it comes from the sender but the statement we
 * built from the order.
 */
export function withdrawalAcknowledgementMail(
  data: WithdrawalAcknowledgementData,
  settings: SiteSettings,
): MailMessage {
  const t = TEXT[data.locale];
  const a = ACK[data.locale];
  const when = formatParisDateTime(data.locale, data.requestedAt);
  const parts: MailPart[] = [
    { p: t.hello(data.name) },
    { p: a.received(when) },
    { heading: a.confirmTitle },
    { p: a.confirm },
    { link: { label: a.confirmLabel, href: data.confirmUrl } },
    { heading: a.notMeTitle },
    { p: a.notMe },
    { link: { label: a.notMeLabel, href: data.disownUrl } },
    { p: a.expires(formatParisDate(data.locale, data.expiresAt)) },
    { heading: t.withdrawalTitle },
    { block: { heading: t.dateLabel, lines: [`${when} (Europe/Paris)`] } },
    { block: { heading: t.statementTitle, lines: statementLines(data.statement) } },
    { heading: t.orderTitle(data.orderNumber) },
    { p: t.orderedOn(formatParisDate(data.locale, data.orderedAt)) },
    { list: worksList(data.locale, data.lines) },
    { p: t.questions(settings.contact_email) },
  ];
  return {
    to: { name: data.name, address: data.email },
    from: { name: siteTitle(settings, data.locale), address: settings.contact_email },
    subject: a.subject(data.orderNumber),
    ...composeMail(data.locale, parts, siteTitle(settings, data.locale)),
  };
}

export interface WithdrawalRefusedData {
  orderNumber: string;
  name: string;
  email: string;
  locale: Locale;
  reason: 'period_over' | 'closed';
  /** The end of the period, for 'period_over' (ISO 8601). */
  deadline: string | null;
}

/** Why a statement sent from the form could not be taken, to the order's address only. */
export function withdrawalRefusedMail(
  data: WithdrawalRefusedData,
  settings: SiteSettings,
): MailMessage {
  const t = TEXT[data.locale];
  const r = REFUSED[data.locale];
  const why =
    data.reason === 'period_over'
      ? r.periodOver(data.deadline ? formatParisDate(data.locale, data.deadline) : '—')
      : r.closed;
  return {
    to: { name: data.name, address: data.email },
    from: { name: siteTitle(settings, data.locale), address: settings.contact_email },
    subject: r.subject(data.orderNumber),
    ...composeMail(
      data.locale,
      [
        { p: t.hello(data.name) },
        { p: r.received },
        { list: [why] },
        { p: r.contact(settings.contact_email) },
      ],
      siteTitle(settings, data.locale),
    ),
  };
}

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
    from: { name: siteTitle(settings, data.locale), address: settings.contact_email },
    subject: t.subject(data.orderNumber),
    ...composeMail(data.locale, parts, siteTitle(settings, data.locale)),
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
        'Dans le back office\u00a0: «\u00a0Commandes\u00a0» → la commande → statut «\u00a0Annulée\u00a0», avec le remboursement (et la remise en vente si les œuvres reviennent).',
        `Rembourser au plus tard le ${refundBy} (14 jours après la rétractation)\u00a0; le remboursement peut attendre le retour des œuvres.`,
      ],
    },
    {
      p: `La commande porte la mention « Rétractation demandée » dans la liste des commandes. ${
        buyerMailed
          ? 'Le client a reçu une confirmation par e-mail.'
          : 'Attention\u00a0: la confirmation n’a pas pu être envoyée au client\u00a0; envoyez-lui cette déclaration vous-même.'
      }`,
    },
  ];
  return {
    to: settings.contact_email,
    from: { name: siteTitle(settings, 'fr'), address: settings.contact_email },
    replyTo: { name: data.name, address: data.email },
    subject: `[Galerie] Rétractation demandée — commande ${data.orderNumber}`,
    ...composeMail('fr', parts, siteTitle(settings, 'fr')),
  };
}
