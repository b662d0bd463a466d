// The mails an order sends once paid: the buyer's confirmation in the order's language
// (storefront §2 "Payment success", §9: shipment in 2–3 business days with tracking, delivery in
// 3–7 business days, 30-day guarantee) and a notification to the gallery, in French. Both list
// the works and name the countries; HTML with a plain-text alternative (api/mail/compose.ts).
import { formatMoney } from '../../src/domain/money.ts';
import type { OrderSummary } from '../orders/index.ts';
import type { SiteSettings } from '../settings/index.ts';
import { composeMail, type MailPart } from './compose.ts';
import type { MailMessage } from './index.ts';

type Locale = 'fr' | 'en';

/** 'PT' → 'Portugal' / 'Portugal', 'NL' → 'Pays-Bas' / 'Netherlands'. */
export function countryName(locale: Locale, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

const TEXT = {
  fr: {
    subject: (n: string) => `Confirmation de votre commande ${n}`,
    hello: (name: string) => `Bonjour ${name},`,
    thanks: 'Merci pour votre achat. Votre paiement est confirmé.',
    order: (n: string) => `Votre commande ${n}`,
    original: 'Œuvre originale',
    print: 'Tirage d’art',
    quantity: (q: number) => `quantité ${q}`,
    subtotal: 'Sous-total',
    discount: (code: string | null) => (code ? `Remise (${code})` : 'Remise'),
    shipping: 'Livraison',
    free: 'Gratuite',
    total: 'Total',
    nextTitle: 'Et maintenant ?',
    certificate:
      'Votre œuvre originale est préparée avec soin et accompagnée de son certificat d’authenticité signé.',
    prepared:
      'Votre commande est préparée avec soin ; chaque tirage est numéroté et signé à la main.',
    next: [
      'Expédition sous 2 à 3 jours ouvrés, avec un numéro de suivi envoyé par e-mail.',
      'Livraison en 3 à 7 jours ouvrés.',
      'Garantie qualité de 30 jours.',
    ],
    address: 'Adresse de livraison',
    questions: (email: string) => `Une question ? Répondez à ce message ou écrivez à ${email}.`,
  },
  en: {
    subject: (n: string) => `Your order ${n} is confirmed`,
    hello: (name: string) => `Hello ${name},`,
    thanks: 'Thank you for your purchase. Your payment is confirmed.',
    order: (n: string) => `Your order ${n}`,
    original: 'Original artwork',
    print: 'Fine-art print',
    quantity: (q: number) => `quantity ${q}`,
    subtotal: 'Subtotal',
    discount: (code: string | null) => (code ? `Discount (${code})` : 'Discount'),
    shipping: 'Shipping',
    free: 'Free',
    total: 'Total',
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
    questions: (email: string) => `Any question? Reply to this message or write to ${email}.`,
  },
} as const;

function addressLines(value: unknown, locale: Locale): string[] {
  const a = (typeof value === 'string' ? JSON.parse(value) : value) as Record<
    string,
    string | undefined
  > | null;
  if (!a) return [];
  return [
    a['street'],
    a['additionalInfo'],
    `${a['postalCode'] ?? ''} ${a['city'] ?? ''}`.trim(),
    a['country'] ? countryName(locale, a['country']) : undefined,
  ].filter((l): l is string => Boolean(l));
}

/** The works bought and the amounts, as mail parts. */
function orderParts(order: OrderSummary, locale: Locale): MailPart[] {
  const t = TEXT[locale];
  const m = (c: number) => formatMoney(c, order.currency, locale);
  return [
    {
      lines: order.lines.map((l) => ({
        title: l.title,
        detail: `${l.type === 'original' ? t.original : t.print}, ${t.quantity(l.quantity)}`,
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

export function orderConfirmationMail(order: OrderSummary, settings: SiteSettings): MailMessage {
  const locale = order.locale;
  const t = TEXT[locale];
  const hasOriginal = order.lines.some((l) => l.type === 'original');
  const hasPrint = order.lines.some((l) => l.type === 'print');
  const body = composeMail(
    locale,
    [
      { p: t.hello(order.name) },
      { p: t.thanks },
      { heading: t.order(order.number) },
      ...orderParts(order, locale),
      { block: { heading: t.address, lines: addressLines(order.shippingAddress, locale) } },
      { heading: t.nextTitle },
      {
        // A certificate of authenticity comes with an original only (issue 9).
        list: [
          ...(hasOriginal ? [t.certificate] : []),
          ...(hasPrint ? [t.prepared] : []),
          ...t.next,
        ],
      },
      { p: t.questions(settings.contact_email) },
    ],
    settings.site_title,
  );
  return {
    to: { name: order.name, address: order.email },
    from: { name: settings.site_title, address: settings.contact_email },
    subject: t.subject(order.number),
    ...body,
  };
}

export function galleryOrderNotification(order: OrderSummary, settings: SiteSettings): MailMessage {
  const body = composeMail(
    'fr',
    [
      { p: `Commande ${order.number} payée par carte.` },
      { p: `Client : ${order.name} <${order.email}>` },
      { p: `Paiement : ${order.paymentIntentId ?? '—'} (session ${order.sessionId ?? '—'})` },
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
