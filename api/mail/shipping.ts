// The mail a buyer gets when the owner marks the order 'Expédiée' (issue 13 point 2): in the
// language the order was placed in, with the carrier and the tracking number when the owner gave
// them, the works in the parcel and where it goes (storefront §9: delivery in 3–7 business days).
// HTML with a plain-text alternative, from the same parts (api/mail/compose.ts). Issue 26: a known
// carrier's tracking page is linked (src/domain/carriers.ts), and French spacing is French.
import { trackingUrl } from '../../src/domain/carriers.ts';
import type { OrderSummary } from '../orders/index.ts';
import type { SiteSettings } from '../settings/index.ts';
import { composeMail, type MailPart } from './compose.ts';
import type { MailMessage } from './index.ts';
import { linkTo } from './links.ts';
import { addressLines } from '../orders/address.ts';
import { lineDetail } from './orders.ts';

export interface Shipment {
  carrier: string | null;
  trackingNumber: string | null;
}

const TEXT = {
  fr: {
    subject: (n: string) => `Votre commande ${n} a été expédiée`,
    hello: (name: string) => `Bonjour ${name},`,
    shipped: (n: string) => `Bonne nouvelle\u00a0: votre commande ${n} vient d’être expédiée.`,
    tracking: 'Suivi du colis',
    carrier: (c: string) => `Transporteur\u00a0: ${c}`,
    number: (t: string) => `Numéro de suivi\u00a0: ${t}`,
    parcel: 'Dans le colis',
    address: 'Adresse de livraison',
    delivery: 'Livraison habituelle en 3 à 7 jours ouvrés.',
    questions: (email: string) =>
      `Une question\u00a0? Répondez à ce message ou écrivez à ${email}.`,
  },
  en: {
    subject: (n: string) => `Your order ${n} has shipped`,
    hello: (name: string) => `Hello ${name},`,
    shipped: (n: string) => `Good news: your order ${n} is on its way.`,
    tracking: 'Parcel tracking',
    carrier: (c: string) => `Carrier: ${c}`,
    number: (t: string) => `Tracking number: ${t}`,
    parcel: 'In the parcel',
    address: 'Shipping address',
    delivery: 'Delivery usually takes 3–7 business days.',
    questions: (email: string) => `Any question? Reply to this message or write to ${email}.`,
  },
} as const;

export function shippingMail(
  order: OrderSummary,
  shipment: Shipment,
  settings: SiteSettings,
): MailMessage {
  const locale = order.locale;
  const t = TEXT[locale];
  const tracking = [
    ...(shipment.carrier ? [t.carrier(shipment.carrier)] : []),
    ...(shipment.trackingNumber ? [t.number(shipment.trackingNumber)] : []),
  ];
  const link = trackingUrl(shipment.carrier, shipment.trackingNumber);
  const parts: MailPart[] = [
    { p: t.hello(order.name) },
    { p: t.shipped(order.number) },
    ...(tracking.length > 0 ? [{ block: { heading: t.tracking, lines: tracking } }] : []),
    ...(link ? [linkTo('tracking', locale, link)] : []),
    { heading: t.parcel },
    {
      // With each print's edition numbers, as the order mail gives them.
      list: order.lines.map((l) => `${l.title} (${lineDetail(l, locale)})`),
    },
    { block: { heading: t.address, lines: addressLines(order.shippingAddress, locale) } },
    { p: t.delivery },
    { p: t.questions(settings.contact_email) },
  ];
  return {
    to: { name: order.name, address: order.email },
    from: { name: settings.site_title, address: settings.contact_email },
    subject: t.subject(order.number),
    ...composeMail(locale, parts, settings.site_title),
  };
}
