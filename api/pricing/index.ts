// Prices, promo codes, shipping and totals, in integer cents. Pure functions: the cart, the
// checkout, the Stripe session and the stored order all call these, so they can never disagree.
import type { SiteSettings } from '../settings/index.ts';

export type { PromoCode, Totals } from '../../src/schemas/views.ts';
import type { PromoCode, Totals } from '../../src/schemas/views.ts';

export interface ShippingRule {
  defaultCents: number;
  /** Shipping is free when the subtotal after discount reaches this amount. */
  freeThresholdCents: number;
}

export interface PricedLine {
  unitPriceCents: number;
  quantity: number;
}

/** The active promo codes of the site settings (back office §3), upper-cased. */
export function activePromoCodes(settings: Pick<SiteSettings, 'promo_codes'>): PromoCode[] {
  return settings.promo_codes
    .filter((p) => p.active)
    .map((p) => ({ code: p.code.trim().toUpperCase(), percent: p.discount }));
}

export function shippingRule(settings: Pick<SiteSettings, 'shipping_info'>): ShippingRule {
  return {
    defaultCents: settings.shipping_info.default_cost_cents,
    freeThresholdCents: settings.shipping_info.free_threshold_cents,
  };
}

/** The active code matching `input` (case and surrounding spaces ignored), or null. */
export function findPromo(codes: readonly PromoCode[], input: string): PromoCode | null {
  const wanted = input.trim().toUpperCase();
  if (!wanted) return null;
  return codes.find((c) => c.code === wanted) ?? null;
}

export type PromoRefusal = 'promo_already_applied' | 'promo_empty' | 'promo_invalid';

/**
 * Applying a code (storefront §5), checked in the spec's order: one already applied, then an
 * empty entry, then a code that is not an active one.
 */
export function applyPromo(
  current: string | null,
  input: string,
  codes: readonly PromoCode[],
): { ok: true; promo: PromoCode } | { ok: false; reason: PromoRefusal } {
  if (current) return { ok: false, reason: 'promo_already_applied' };
  if (!input.trim()) return { ok: false, reason: 'promo_empty' };
  const promo = findPromo(codes, input);
  return promo ? { ok: true, promo } : { ok: false, reason: 'promo_invalid' };
}

/** subtotal × percent / 100, rounded half up to the cent. */
export function discountFor(subtotalCents: number, percent: number): number {
  return Math.round((subtotalCents * percent) / 100);
}

/** Shipping: the default cost, free when the subtotal after discount reaches the threshold. */
export function shippingFor(afterDiscountCents: number, rule: ShippingRule): number {
  if (afterDiscountCents <= 0) return 0;
  return afterDiscountCents >= rule.freeThresholdCents ? 0 : rule.defaultCents;
}

export function computeTotals(
  lines: readonly PricedLine[],
  promo: PromoCode | null,
  rule: ShippingRule,
): Totals {
  for (const line of lines) {
    if (!Number.isSafeInteger(line.unitPriceCents) || line.unitPriceCents <= 0)
      throw new RangeError(`invalid unit price: ${line.unitPriceCents}`);
    if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0)
      throw new RangeError(`invalid quantity: ${line.quantity}`);
  }
  const subtotalCents = lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
  const discountCents = promo
    ? Math.min(subtotalCents, discountFor(subtotalCents, promo.percent))
    : 0;
  const shippingCents = shippingFor(subtotalCents - discountCents, rule);
  return {
    subtotalCents,
    discountCents,
    shippingCents,
    totalCents: subtotalCents - discountCents + shippingCents,
  };
}
