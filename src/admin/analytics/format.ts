// The analytics screen's pure helpers (back office §4, §5, §9; issue 12): the zeroed figures a
// failed load shows, and the French formats of percentages and the period's dates (money, §9 without
// decimals, is src/domain/money.ts's formatWholeMoney).
import {
  MONTH_LABELS,
  type Analytics,
  type AnalyticsPeriod,
  type Bucket,
} from '../../schemas/analytics.ts';

/**
 * §4 / §8: after a failed load every figure is zero — zero summary, 12 month labels with 12
 * zeros, no product, zero customer stats. No sales bucket is invented: the chart stays empty
 * rather than drawing days it knows nothing about. The currency and year are kept from the last
 * answer (they are settings, not figures).
 */
export function zeroAnalytics(
  period: AnalyticsPeriod,
  keep: { currency?: string; year?: number } = {},
): Analytics {
  const summary = () => ({ revenueCents: 0, orders: 0, averageCents: 0 });
  return {
    period,
    currency: keep.currency ?? 'EUR',
    from: '',
    to: '',
    summary: summary(),
    previous: summary(),
    change: { revenue: 0, orders: 0, average: 0 },
    sales: [],
    byType: { originalCents: 0, printCents: 0 },
    monthly: {
      labels: [...MONTH_LABELS],
      thisYear: MONTH_LABELS.map(() => 0),
      lastYear: MONTH_LABELS.map(() => 0),
      year: keep.year ?? new Date().getFullYear(),
    },
    top: [],
    mostViewed: [],
    customers: {
      total: 0,
      newLast30Days: 0,
      returning: 0,
      conversionRate: 0,
      buyers: 0,
      visitors: 0,
      pageViews: 0,
    },
  };
}

/** The currency's sign as French writes it ('€', '$US', '£GB'), for the chart's 'Ventes (€)'. */
export function currencySymbol(currency: string): string {
  return (
    new Intl.NumberFormat('fr-FR', { style: 'currency', currency })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currency
  );
}

const percentFormat = new Intl.NumberFormat('fr-FR', {
  style: 'percent',
  signDisplay: 'exceptZero',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

export type Trend = 'up' | 'down' | 'flat';

/**
 * A §5 percent change as shown on a card: '+12,5 %', '−3,0 %' (a true minus sign), '0,0 %'.
 * The trend follows the figure shown, so a change that rounds to 0,0 % is flat rather than red
 * (§2: green for 0 or more, red below).
 */
export function formatChange(percent: number): { text: string; trend: Trend } {
  const rounded = Math.round(percent * 10) / 10;
  const text = percentFormat.format(rounded / 100).replace('-', '−');
  return { text, trend: rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat' };
}

const rateFormat = new Intl.NumberFormat('fr-FR', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** §2: the conversion rate with one decimal: '2,4 %'. */
export function formatRate(percent: number): string {
  return rateFormat.format(percent / 100);
}

const dayFormat = new Intl.DateTimeFormat('fr-FR', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A Paris calendar date 'YYYY-MM-DD' as '25 oct. 2026' (read as a date, not an instant). */
export function frenchDay(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

/** A bucket's days: '25 oct. 2026', '1–7 sept. 2026', '29 déc. 2026 – 4 janv. 2027'. */
export function frenchDays(from: string, to: string): string {
  if (from === to) return frenchDay(from);
  return dayFormat.formatRange(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`));
}

/** The best bucket (highest revenue, the first one on a tie), or null when nothing sold. */
export function bestBucket(sales: readonly Bucket[]): Bucket | null {
  return sales.reduce<Bucket | null>(
    (best, bucket) => (bucket.revenueCents > (best?.revenueCents ?? 0) ? bucket : best),
    null,
  );
}

/**
 * Issue 27 §6: below this many visitors over the period a conversion rate means nothing (two
 * buyers among three visitors is not '66,7 %'), so the card shows '—' and says why.
 */
export const CONVERSION_MIN_VISITORS = 100;

/** The conversion card's figure: '2,4 %', or '—' with too few visitors to mean something. */
export function conversionText(customers: { conversionRate: number; visitors: number }): string {
  return customers.visitors >= CONVERSION_MIN_VISITORS ? formatRate(customers.conversionRate) : '—';
}
