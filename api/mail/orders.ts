// The mails an order sends once paid: the buyer's confirmation in the order's language
// (storefront §2 "Payment success", §9: shipment in 2–3 business days with tracking, delivery in
// 3–7 business days, 30-day guarantee) and a notification to the gallery, in French.
import type { OrderSummary } from '../orders/index.ts';
import type { SiteSettings } from '../settings/index.ts';
import type { MailMessage } from './index.ts';

function money(locale: 'fr' | 'en', cents: number, currency: string): string {
  return new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en', {
    style: 'currency',
    currency,
  }).format(cents / 100);
}

const TEXT = {
  fr: {
    subject: (n: string) => `Confirmation de votre commande ${n}`,
    hello: (name: string) => `Bonjour ${name},`,
    thanks: 'Merci pour votre achat. Votre paiement est confirmé.',
    order: 'Commande',
    original: 'œuvre originale',
    print: 'tirage',
    subtotal: 'Sous-total',
    discount: (code: string | null) => (code ? `Réduction (${code})` : 'Réduction'),
    shipping: 'Livraison',
    free: 'Gratuite',
    total: 'Total',
    next: [
      'Et maintenant ?',
      '- Votre commande est préparée avec soin et accompagnée de son certificat d’authenticité signé.',
      '- Expédition sous 2 à 3 jours ouvrés, avec un numéro de suivi envoyé par e-mail.',
      '- Livraison en 3 à 7 jours ouvrés.',
      '- Garantie qualité de 30 jours.',
    ],
    address: 'Adresse de livraison',
    questions: (email: string) => `Une question ? Répondez à ce message ou écrivez à ${email}.`,
  },
  en: {
    subject: (n: string) => `Your order ${n} is confirmed`,
    hello: (name: string) => `Hello ${name},`,
    thanks: 'Thank you for your purchase. Your payment is confirmed.',
    order: 'Order',
    original: 'original artwork',
    print: 'print',
    subtotal: 'Subtotal',
    discount: (code: string | null) => (code ? `Discount (${code})` : 'Discount'),
    shipping: 'Shipping',
    free: 'Free',
    total: 'Total',
    next: [
      'What happens next?',
      '- Your order is carefully prepared and comes with its signed certificate of authenticity.',
      '- Shipment within 2–3 business days, with a tracking number sent by email.',
      '- Delivery within 3–7 business days.',
      '- 30-day quality guarantee.',
    ],
    address: 'Shipping address',
    questions: (email: string) => `Any question? Reply to this message or write to ${email}.`,
  },
} as const;

function addressLines(value: unknown): string[] {
  const a = (typeof value === 'string' ? JSON.parse(value) : value) as Record<
    string,
    string | undefined
  > | null;
  if (!a) return [];
  return [
    a['street'],
    a['additionalInfo'],
    `${a['postalCode'] ?? ''} ${a['city'] ?? ''}`.trim(),
    a['country'],
  ].filter((l): l is string => Boolean(l));
}

function totalsLines(order: OrderSummary, locale: 'fr' | 'en'): string[] {
  const t = TEXT[locale];
  const m = (c: number) => money(locale, c, order.currency);
  return [
    ...order.lines.map(
      (l) =>
        `${l.title} (${l.type === 'original' ? t.original : t.print}) × ${l.quantity} — ${m(l.unitPriceCents * l.quantity)}`,
    ),
    '',
    `${t.subtotal}: ${m(order.subtotalCents)}`,
    ...(order.discountCents > 0
      ? [`${t.discount(order.promoCode)}: −${m(order.discountCents)}`]
      : []),
    `${t.shipping}: ${order.shippingCents === 0 ? t.free : m(order.shippingCents)}`,
    `${t.total}: ${m(order.totalCents)}`,
  ];
}

export function orderConfirmationMail(order: OrderSummary, settings: SiteSettings): MailMessage {
  const locale = order.locale;
  const t = TEXT[locale];
  return {
    to: { name: order.name, address: order.email },
    from: { name: settings.site_title, address: settings.contact_email },
    subject: t.subject(order.number),
    text: [
      t.hello(order.name),
      '',
      t.thanks,
      '',
      `${t.order} ${order.number}`,
      ...totalsLines(order, locale),
      '',
      `${t.address}:`,
      ...addressLines(order.shippingAddress),
      '',
      ...t.next,
      '',
      t.questions(settings.contact_email),
      '',
      settings.site_title,
    ].join('\n'),
  };
}

export function galleryOrderNotification(order: OrderSummary, settings: SiteSettings): MailMessage {
  return {
    to: settings.contact_email,
    from: { name: settings.site_title, address: settings.contact_email },
    replyTo: { name: order.name, address: order.email },
    subject: `[Galerie] Nouvelle commande payée ${order.number} — ${money('fr', order.totalCents, order.currency)}`,
    text: [
      `Commande ${order.number} payée par carte.`,
      `Client : ${order.name} <${order.email}>`,
      `Paiement : ${order.paymentIntentId ?? '—'} (session ${order.sessionId ?? '—'})`,
      '',
      ...totalsLines(order, 'fr'),
      '',
      'Adresse de livraison :',
      ...addressLines(order.shippingAddress),
      '',
      'À expédier sous 2 à 3 jours ouvrés, avec numéro de suivi.',
    ].join('\n'),
  };
}
