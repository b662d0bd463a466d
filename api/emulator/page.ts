// The emulator's hosted payment page: one self-contained HTML document per state (open, closed,
// unknown), French or English after the session's locale, no script and no external resource
// (the site's own icon, so the browser does not ask for a /favicon.ico that does not exist).
// A plain form POSTs the test card number back to /emulator/checkout/:id.
import { cspHash } from '../http/headers.ts';
import type { CheckoutSession, SessionRecord } from './store.ts';

export type PageLang = 'fr' | 'en';

/** 'en…' → English, anything else (fr, auto, none) → French: the shop's default language. */
export const pageLang = (locale: string | null): PageLang =>
  locale?.toLowerCase().startsWith('en') ? 'en' : 'fr';

const TEXT = {
  fr: {
    title: 'Paiement',
    testNotice: 'Mode TEST — émulateur de paiement',
    testDetail: 'Aucun paiement réel n’est effectué. Aucune carte n’est débitée.',
    summary: 'Votre commande',
    item: 'Article',
    quantity: 'Quantité',
    amount: 'Montant',
    subtotal: 'Sous-total',
    discount: 'Remise',
    shipping: 'Livraison',
    total: 'Total',
    email: 'E-mail',
    payment: 'Paiement par carte',
    cardNumber: 'Numéro de carte',
    expiry: 'Date d’expiration (MM / AA)',
    cvc: 'Cryptogramme (CVC)',
    cardName: 'Nom du titulaire (facultatif)',
    testCards:
      'Cartes de test : 4242 4242 4242 4242 est acceptée, 4000 0000 0000 0002 est refusée.',
    pay: (total: string) => `Payer ${total}`,
    cancel: 'Annuler et revenir à la boutique',
    declined: 'Votre carte a été refusée.',
    invalidCard: 'Numéro de carte invalide. Utilisez 4242 4242 4242 4242.',
    invalidEmail: 'Saisissez une adresse e-mail valide.',
    expiredTitle: 'Session de paiement expirée',
    expired: 'Cette session de paiement a expiré : elle ne peut plus être réglée.',
    completeTitle: 'Paiement déjà effectué',
    complete: 'Cette session de paiement est déjà réglée : elle ne peut plus être payée.',
    backToShop: 'Revenir à la boutique',
    seeConfirmation: 'Voir la confirmation de commande',
    notFoundTitle: 'Session de paiement introuvable',
    notFound: 'Aucune session de paiement ne correspond à cette adresse.',
    errorSummary: 'Erreur',
  },
  en: {
    title: 'Payment',
    testNotice: 'TEST mode — payment emulator',
    testDetail: 'No real payment is made. No card is charged.',
    summary: 'Your order',
    item: 'Item',
    quantity: 'Quantity',
    amount: 'Amount',
    subtotal: 'Subtotal',
    discount: 'Discount',
    shipping: 'Shipping',
    total: 'Total',
    email: 'Email',
    payment: 'Card payment',
    cardNumber: 'Card number',
    expiry: 'Expiry date (MM / YY)',
    cvc: 'Security code (CVC)',
    cardName: 'Name on card (optional)',
    testCards: 'Test cards: 4242 4242 4242 4242 is accepted, 4000 0000 0000 0002 is declined.',
    pay: (total: string) => `Pay ${total}`,
    cancel: 'Cancel and return to the shop',
    declined: 'Your card was declined.',
    invalidCard: 'Invalid card number. Use 4242 4242 4242 4242.',
    invalidEmail: 'Enter a valid email address.',
    expiredTitle: 'Checkout session expired',
    expired: 'This checkout session has expired: it can no longer be paid.',
    completeTitle: 'Already paid',
    complete: 'This checkout session has already been paid: it can no longer be paid.',
    backToShop: 'Return to the shop',
    seeConfirmation: 'See the order confirmation',
    notFoundTitle: 'Checkout session not found',
    notFound: 'No checkout session matches this address.',
    errorSummary: 'Error',
  },
} as const;

export type PageError = 'declined' | 'invalidCard' | 'invalidEmail';

// Stripe amounts are in the currency's smallest unit; these currencies have none below the unit.
const ZERO_DECIMAL = new Set(
  'bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '),
);

export function formatAmount(amount: number, currency: string, lang: PageLang): string {
  const divisor = ZERO_DECIMAL.has(currency.toLowerCase()) ? 1 : 100;
  return new Intl.NumberFormat(lang === 'en' ? 'en' : 'fr-FR', {
    style: 'currency',
    currency: currency.toUpperCase(),
  }).format(amount / divisor);
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The success URL with Stripe's `{CHECKOUT_SESSION_ID}` template filled in. */
export const successRedirect = (session: CheckoutSession) =>
  session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f2ee}
main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.test{border:2px solid #8a4b00;background:#fff4e0;color:#5c3200;padding:.75rem 1rem;border-radius:.5rem}
.test strong{display:block;text-transform:none}
.card{background:#fff;border-radius:.75rem;padding:1rem 1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
table{width:100%;border-collapse:collapse}
th,td{padding:.4rem 0;text-align:left;vertical-align:top}
thead th{font-size:.85rem;color:#555;border-bottom:1px solid #ddd}
td.num,th.num{text-align:right;white-space:nowrap}
tfoot th,tfoot td{border-top:1px solid #eee}
tr.total th,tr.total td{font-weight:700;font-size:1.1rem;border-top:2px solid #1a1a1a}
.desc{display:block;font-size:.85rem;color:#555}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);border:0}
label{display:block;font-weight:600;margin:.9rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #767676;border-radius:.4rem;background:#fff;color:inherit}
input[aria-invalid=true]{border-color:#b00020;border-width:2px}
.row{display:flex;gap:1rem}.row>div{flex:1}
.hint{font-size:.85rem;color:#555;margin:.35rem 0 0}
.error{color:#b00020;font-weight:600;border-left:4px solid #b00020;padding:.25rem .75rem;margin:1rem 0 0}
button{margin-top:1.25rem;width:100%;font:inherit;font-weight:700;padding:.8rem;border:0;border-radius:.5rem;background:#1a1a1a;color:#fff;cursor:pointer}
a{color:#1a1a1a}
.back{display:inline-block;margin-top:1.25rem}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
`;

// Issue 14 (helper C): the pages' one inline stylesheet is allowed by its hash, not 'unsafe-inline'.
export const STYLE_HASH = cspHash(STYLE);

function document(lang: PageLang, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function testNotice(lang: PageLang): string {
  const t = TEXT[lang];
  return `<p class="test" role="note"><strong>${t.testNotice}</strong> ${t.testDetail}</p>`;
}

export interface CheckoutPageInput {
  record: SessionRecord;
  error?: PageError;
  /** What the visitor typed, shown again after an error. */
  values?: { card_number?: string; expiry?: string; cvc?: string; name?: string; email?: string };
}

/** The payment page of an open session. */
export function checkoutPage({ record, error, values = {} }: CheckoutPageInput): string {
  const { session, lineItems, productDescriptions } = record;
  const lang = pageLang(session.locale);
  const t = TEXT[lang];
  const money = (amount: number) => escapeHtml(formatAmount(amount, session.currency, lang));
  const total = formatAmount(session.amount_total, session.currency, lang);

  const rows = lineItems
    .map((line, i) => {
      const description = productDescriptions[i];
      return `<tr><th scope="row">${escapeHtml(line.description)}${
        description ? `<span class="desc">${escapeHtml(description)}</span>` : ''
      }</th><td class="num">× ${line.quantity}</td><td class="num">${money(line.amount_subtotal)}</td></tr>`;
    })
    .join('\n');
  const totals = [
    `<tr><th scope="row" colspan="2">${t.subtotal}</th><td class="num">${money(session.amount_subtotal)}</td></tr>`,
    session.total_details.amount_discount > 0
      ? `<tr><th scope="row" colspan="2">${t.discount}</th><td class="num">− ${money(session.total_details.amount_discount)}</td></tr>`
      : '',
    session.shipping_cost
      ? `<tr><th scope="row" colspan="2">${t.shipping}${
          record.shippingName ? `<span class="desc">${escapeHtml(record.shippingName)}</span>` : ''
        }</th><td class="num">${money(session.total_details.amount_shipping)}</td></tr>`
      : '',
    `<tr class="total"><th scope="row" colspan="2">${t.total}</th><td class="num">${money(session.amount_total)}</td></tr>`,
  ]
    .filter(Boolean)
    .join('\n');

  const field = (
    name: keyof NonNullable<CheckoutPageInput['values']>,
    label: string,
    attributes: string,
    describedBy: string[] = [],
  ) => {
    const invalid =
      (error === 'invalidEmail' && name === 'email') ||
      ((error === 'declined' || error === 'invalidCard') && name === 'card_number');
    const ids = [...describedBy, ...(invalid ? ['payment-error'] : [])];
    return `<label for="${name}">${label}</label>
<input id="${name}" name="${name}" ${attributes} value="${escapeHtml(values[name] ?? '')}"${
      ids.length ? ` aria-describedby="${ids.join(' ')}"` : ''
    }${invalid ? ' aria-invalid="true"' : ''}>`;
  };

  const emailBlock = session.customer_email
    ? `<p><strong>${t.email}${lang === 'fr' ? '\u00a0:' : ':'}</strong> ${escapeHtml(session.customer_email)}</p>`
    : field('email', t.email, 'type="email" autocomplete="email" required');

  const body = `${testNotice(lang)}
<h1>${t.title}</h1>
<section class="card" aria-labelledby="summary-title">
<h2 id="summary-title">${t.summary}</h2>
<table>
<thead><tr><th scope="col">${t.item}</th><th scope="col" class="num">${t.quantity}</th><th scope="col" class="num">${t.amount}</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
${totals}
</tfoot>
</table>
</section>
<h2 id="payment-title">${t.payment}</h2>
<form class="card" method="post" action="/emulator/checkout/${encodeURIComponent(session.id)}" aria-labelledby="payment-title">
${emailBlock}
${error ? `<p class="error" id="payment-error" role="alert">${t[error]}</p>` : ''}
${field('card_number', t.cardNumber, 'type="text" inputmode="numeric" autocomplete="cc-number" required', ['card-hint'])}
<p class="hint" id="card-hint">${t.testCards}</p>
<div class="row">
<div>${field('expiry', t.expiry, 'type="text" inputmode="numeric" autocomplete="cc-exp"')}</div>
<div>${field('cvc', t.cvc, 'type="text" inputmode="numeric" autocomplete="cc-csc"')}</div>
</div>
${field('name', t.cardName, 'type="text" autocomplete="cc-name"')}
<button type="submit">${t.pay(escapeHtml(total))}</button>
</form>
${
  session.cancel_url
    ? `<a class="back" href="${escapeHtml(session.cancel_url)}">${t.cancel}</a>`
    : ''
}`;
  return document(lang, `${t.pay(total)} — ${t.testNotice}`, body);
}

/** An expired or completed session: nothing more to pay, a way back instead. */
export function closedPage(session: CheckoutSession): string {
  const lang = pageLang(session.locale);
  const t = TEXT[lang];
  const complete = session.status === 'complete';
  const title = complete ? t.completeTitle : t.expiredTitle;
  const link = complete
    ? `<a class="back" href="${escapeHtml(successRedirect(session))}">${t.seeConfirmation}</a>`
    : session.cancel_url
      ? `<a class="back" href="${escapeHtml(session.cancel_url)}">${t.backToShop}</a>`
      : '';
  const body = `${testNotice(lang)}
<h1>${title}</h1>
<p>${complete ? t.complete : t.expired}</p>
${link}`;
  return document(lang, `${title} — ${t.testNotice}`, body);
}

/** No session with this id (both languages: the locale is unknown). */
export function notFoundPage(): string {
  const body = `${testNotice('fr')}
<h1>${TEXT.fr.notFoundTitle}</h1>
<p>${TEXT.fr.notFound}</p>
<div lang="en">
<h2>${TEXT.en.notFoundTitle}</h2>
<p>${TEXT.en.notFound}</p>
</div>`;
  return document('fr', `${TEXT.fr.notFoundTitle} / ${TEXT.en.notFoundTitle}`, body);
}
