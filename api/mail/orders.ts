// The mails an order sends once paid: the buyer's confirmation in the order's language and a
// notification to the gallery, in French. Both list the works — with each print's edition
// numbers — and name the countries; HTML with a plain-text alternative (api/mail/compose.ts).
//
// The buyer's confirmation is the contract's confirmation on a durable medium (issue 26; directive
// 2011/83/EU art. 8(7)): the seller's identity, the works and their numbers, the amounts, the
// invoice (attached as a PDF, and a signed link that works without an account), the withdrawal
// terms with the link to the withdrawal form, and the terms of sale (key points and link).
// Storefront §2 "Payment success", §9: shipment in 2–3 business days with tracking, delivery in
// 3–7 business days, 30-day guarantee.
import { editionCaption, parseEditionLabel } from '../../src/domain/editions.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { loadConfig } from '../config.ts';
import { addressLines } from '../orders/address.ts';
import type { OrderSummary } from '../orders/index.ts';
import type { SiteSettings } from '../settings/index.ts';
import { colon, composeMail, type MailPart } from './compose.ts';
import type { MailAttachment, MailMessage } from './index.ts';
import { linkTo, termsUrl, withdrawalFormUrl } from './links.ts';
import { sellerLines } from './seller.ts';

type Locale = 'fr' | 'en';

/** An issued invoice or credit note as a mail carries it. */
export interface MailedDocument {
  number: string;
  /** The signed link (api/invoices/link.ts). */
  url: string;
  /** The PDF, attached; null when it could not be rendered (the link still works). */
  pdf: MailAttachment | null;
}

/** A certificate of authenticity as the order mail links it (issue 26, certificates). */
export interface MailedCertificate {
  title: string;
  /** The edition label ('7/50'), null for an original. */
  label: string | null;
  url: string;
}

/** What the confirmation carries besides the order. */
export interface OrderMailContext {
  /** Absolute origin of the site's links (PUBLIC_SITE_URL). */
  siteUrl?: string;
  invoice?: MailedDocument | null;
  certificates?: readonly MailedCertificate[];
}

const NBSP = '\u00a0';

const TEXT = {
  fr: {
    subject: (n: string) => `Confirmation de votre commande ${n}`,
    hello: (name: string) => `Bonjour ${name},`,
    thanks:
      'Merci pour votre achat. Votre paiement est confirmé. Ce message confirme le contrat de vente\u00a0; conservez-le.',
    order: (n: string) => `Votre commande ${n}`,
    original: 'Œuvre originale, pièce unique',
    print: 'Tirage d’art',
    quantity: (q: number) => `quantité ${q}`,
    subtotal: 'Sous-total',
    discount: (code: string | null) => (code ? `Remise (${code})` : 'Remise'),
    shipping: 'Livraison',
    free: 'Gratuite',
    total: 'Total',
    invoiceTitle: 'Votre facture',
    invoiceAttached: (n: string) =>
      `Votre facture ${n} est jointe à ce message (PDF). Elle reste téléchargeable par ce lien, sans compte${NBSP}:`,
    invoiceLinkOnly: (n: string) =>
      `Votre facture ${n} est téléchargeable par ce lien, sans compte${NBSP}:`,
    certificatesTitle: 'Vos certificats d’authenticité',
    certificateOf: (title: string, label: string | null) =>
      label ? `${title}, tirage n° ${label}` : `${title}, œuvre originale`,
    nextTitle: `Et maintenant${NBSP}?`,
    certificate:
      'Votre œuvre originale est préparée avec soin et accompagnée de son certificat d’authenticité signé.',
    prepared:
      'Votre commande est préparée avec soin\u00a0; chaque tirage est numéroté et signé à la main.',
    next: [
      'Expédition sous 2 à 3 jours ouvrés, avec un numéro de suivi envoyé par e-mail.',
      'Livraison en 3 à 7 jours ouvrés.',
      'Garantie qualité de 30 jours.',
    ],
    address: 'Adresse de livraison',
    withdrawalTitle: 'Droit de rétractation',
    withdrawal: [
      'Vous disposez de 14 jours à compter de la réception des œuvres pour vous rétracter, sans avoir à donner de motif.',
      'Pour l’exercer, remplissez le formulaire de rétractation en ligne avec votre numéro de commande et votre adresse e-mail, ou adressez-nous toute autre déclaration dénuée d’ambiguïté.',
      'Les œuvres sont à renvoyer au plus tard 14 jours après votre rétractation. Tous vos paiements, frais de livraison compris, vous sont remboursés au plus tard 14 jours après la rétractation, par le moyen de paiement utilisé\u00a0; le remboursement peut attendre le retour des œuvres.',
    ],
    termsTitle: 'Conditions de vente',
    terms: [
      'Prix en euros, TVA incluse lorsqu’elle est applicable\u00a0; le prix facturé est celui affiché à la commande.',
      'Tout dommage dû au transport est à signaler dans les 48 heures suivant la réception, photographies à l’appui.',
      'Les tirages sont garantis 30 jours contre tout défaut d’impression.',
      'Droit portugais\u00a0; le consommateur garde la protection des règles impératives de son pays de résidence.',
    ],
    sellerTitle: 'Le vendeur',
    questions: (email: string) =>
      `Une question${NBSP}? Répondez à ce message ou écrivez à ${email}.`,
  },
  en: {
    subject: (n: string) => `Your order ${n} is confirmed`,
    hello: (name: string) => `Hello ${name},`,
    thanks:
      'Thank you for your purchase. Your payment is confirmed. This message confirms the contract of sale; please keep it.',
    order: (n: string) => `Your order ${n}`,
    original: 'Original work, unique piece',
    print: 'Fine-art print',
    quantity: (q: number) => `quantity ${q}`,
    subtotal: 'Subtotal',
    discount: (code: string | null) => (code ? `Discount (${code})` : 'Discount'),
    shipping: 'Shipping',
    free: 'Free',
    total: 'Total',
    invoiceTitle: 'Your invoice',
    invoiceAttached: (n: string) =>
      `Your invoice ${n} is attached to this message (PDF). You can also download it from this link, without an account:`,
    invoiceLinkOnly: (n: string) =>
      `You can download your invoice ${n} from this link, without an account:`,
    certificatesTitle: 'Your certificates of authenticity',
    certificateOf: (title: string, label: string | null) =>
      label ? `${title}, print no. ${label}` : `${title}, original work`,
    nextTitle: 'What happens next?',
    certificate:
      'Your original artwork is carefully prepared and comes with its signed certificate of authenticity.',
    prepared: 'Your order is carefully prepared; each print is numbered and hand-signed.',
    next: [
      'Shipment within 2–3 business days, with a tracking number sent by email.',
      'Delivery within 3–7 business days.',
      '30-day quality guarantee.',
    ],
    address: 'Shipping address',
    withdrawalTitle: 'Right of withdrawal',
    withdrawal: [
      'You have 14 days from receiving the works to withdraw from this contract, without giving any reason.',
      'To do so, fill in the online withdrawal form with your order number and email address, or send us any other clear statement.',
      'The works are to be sent back within 14 days of your withdrawal. Every payment received, delivery costs included, is refunded within 14 days of the withdrawal, to the means of payment used; the refund may wait until the works are back.',
    ],
    termsTitle: 'Terms of sale',
    terms: [
      'Prices in euros, including VAT where applicable; you are charged the price shown when you ordered.',
      'Report any damage in transit within 48 hours of delivery, with photographs.',
      'Prints are guaranteed for 30 days against any printing defect.',
      'Portuguese law applies; as a consumer you keep the protection of the mandatory rules of your country of residence.',
    ],
    sellerTitle: 'The seller',
    questions: (email: string) => `Any question? Reply to this message or write to ${email}.`,
  },
} as const;

/**
 * What a line is: an original, or a print with its copies' numbers ('Tirage n° 7/50') — the
 * numbers the owner pencils on the prints, the same on the invoice and the certificate.
 */
export function lineDetail(line: OrderSummary['lines'][number], locale: Locale): string {
  const t = TEXT[locale];
  if (line.type === 'original') return `${t.original}, ${t.quantity(line.quantity)}`;
  const copies = (line.editions ?? [])
    .map((label) => parseEditionLabel(label))
    .filter((copy) => copy !== null)
    .map((copy) => editionCaption(copy, locale));
  return `${copies.length ? copies.join(', ') : t.print}, ${t.quantity(line.quantity)}`;
}

/** The works bought and the amounts, as mail parts. */
function orderParts(order: OrderSummary, locale: Locale): MailPart[] {
  const t = TEXT[locale];
  const m = (c: number) => formatMoney(c, order.currency, locale);
  return [
    {
      lines: order.lines.map((l) => ({
        title: l.title,
        detail: lineDetail(l, locale),
        amount: m(l.unitPriceCents * l.quantity),
      })),
    },
    {
      totals: [
        { label: t.subtotal, amount: m(order.subtotalCents) },
        ...(order.discountCents > 0
          ? [{ label: t.discount(order.promoCode), amount: `−${m(order.discountCents)}` }]
          : []),
        {
          label: t.shipping,
          amount: order.shippingCents === 0 ? t.free : m(order.shippingCents),
        },
        { label: t.total, amount: m(order.totalCents), strong: true },
      ],
    },
  ];
}

export function orderConfirmationMail(
  order: OrderSummary,
  settings: SiteSettings,
  context: OrderMailContext = {},
): MailMessage {
  const locale = order.locale;
  const t = TEXT[locale];
  const siteUrl = context.siteUrl ?? loadConfig().siteUrl;
  const hasOriginal = order.lines.some((l) => l.type === 'original');
  const hasPrint = order.lines.some((l) => l.type === 'print');
  const invoice = context.invoice ?? null;
  const certificates = context.certificates ?? [];
  const body = composeMail(
    locale,
    [
      { p: t.hello(order.name) },
      { p: t.thanks },
      { heading: t.order(order.number) },
      ...orderParts(order, locale),
      { block: { heading: t.address, lines: addressLines(order.shippingAddress, locale) } },
      ...(invoice
        ? [
            { heading: t.invoiceTitle },
            {
              p: invoice.pdf
                ? t.invoiceAttached(invoice.number)
                : t.invoiceLinkOnly(invoice.number),
            },
            linkTo('invoice', locale, invoice.url),
          ]
        : []),
      ...(certificates.length
        ? [
            { heading: t.certificatesTitle },
            ...certificates.flatMap((c): MailPart[] => [
              { p: t.certificateOf(c.title, c.label) },
              linkTo('certificate', locale, c.url),
            ]),
          ]
        : []),
      { heading: t.nextTitle },
      {
        // A certificate of authenticity comes with an original only (issue 9).
        list: [
          ...(hasOriginal ? [t.certificate] : []),
          ...(hasPrint ? [t.prepared] : []),
          ...t.next,
        ],
      },
      { heading: t.withdrawalTitle },
      ...t.withdrawal.map((p) => ({ p })),
      linkTo('withdrawalForm', locale, withdrawalFormUrl(siteUrl, locale)),
      { heading: t.termsTitle },
      { list: t.terms },
      linkTo('terms', locale, termsUrl(siteUrl, locale)),
      { block: { heading: t.sellerTitle, lines: sellerLines(settings, locale) } },
      { p: t.questions(settings.contact_email) },
    ],
    settings.site_title,
  );
  return {
    to: { name: order.name, address: order.email },
    from: { name: settings.site_title, address: settings.contact_email },
    subject: t.subject(order.number),
    ...body,
    ...(invoice?.pdf ? { attachments: [invoice.pdf] } : {}),
  };
}

export function galleryOrderNotification(order: OrderSummary, settings: SiteSettings): MailMessage {
  const body = composeMail(
    'fr',
    [
      { p: `Commande ${order.number} payée par carte.` },
      { p: `${colon('fr', 'Client')} ${order.name} <${order.email}>` },
      {
        p: `${colon('fr', 'Paiement')} ${order.paymentIntentId ?? '—'} (session ${order.sessionId ?? '—'})`,
      },
      { heading: 'Œuvres' },
      ...orderParts(order, 'fr'),
      {
        block: {
          heading: 'Adresse de livraison',
          lines: addressLines(order.shippingAddress, 'fr'),
        },
      },
      { p: 'À expédier sous 2 à 3 jours ouvrés, avec numéro de suivi.' },
    ],
    settings.site_title,
  );
  return {
    to: settings.contact_email,
    from: { name: settings.site_title, address: settings.contact_email },
    replyTo: { name: order.name, address: order.email },
    subject: `[Galerie] Nouvelle commande payée ${order.number} — ${formatMoney(order.totalCents, order.currency)}`,
    ...body,
  };
}
