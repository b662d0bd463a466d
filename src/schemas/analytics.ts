// What GET /api/admin/analytics?period= answers and the analytics screen draws (back office §2
// "Analytics", §3, §5, §9; issue 12). Every figure is computed in SQL on the server from paid
// orders (net of refunds; cancelled orders and abandoned checkouts never count) and the private
// visit counts. Plain types and constants: the island imports them and stays small.

export const ANALYTICS_PERIODS = ['7d', '30d', '90d', '1y'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = '30d';

/** §2: the period switch's labels. */
export const PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  '7d': '7 jours',
  '30d': '30 jours',
  '90d': '90 jours',
  '1y': '1 an',
};

/** Days in each period (§9: 1y is 365 days); the previous period has the same length. */
export const PERIOD_DAYS: Record<AnalyticsPeriod, number> = {
  '7d': 7,
  '30d': 30,
  '90d': 90,
  '1y': 365,
};

export function isAnalyticsPeriod(value: unknown): value is AnalyticsPeriod {
  return (ANALYTICS_PERIODS as readonly unknown[]).includes(value);
}

/**
 * §5: 100 if the previous value is 0 and the current is above 0; 0 if both are 0; otherwise
 * (current − previous) / previous × 100.
 */
export function percentChange(current: number, previous: number): number {
  if (previous === 0) return current > 0 ? 100 : 0;
  return ((current - previous) / previous) * 100;
}

export interface SalesSummary {
  /** Paid orders' totals (shipping included, discounts deducted), net of refunds, in cents. */
  revenueCents: number;
  orders: number;
  /** revenue ÷ orders, rounded to the cent; 0 without orders. */
  averageCents: number;
}

export interface Bucket {
  /** The chart's label (§9: 'Lun'…'Dim' for 7 days, 'J-29'…'Auj.' for 30, 'Sem 1'… for 90,
   * 'janv. 26'… for a year). */
  label: string;
  /** First and last day covered, Europe/Paris dates (YYYY-MM-DD), for the data table. */
  from: string;
  to: string;
  revenueCents: number;
  orders: number;
}

export interface TopWork {
  title: string;
  /** The gallery key (`/gallery?work=<key>`) when the work still exists. */
  key: string | null;
  /** An original and its prints often share a title. */
  type: 'original' | 'print';
  quantity: number;
  /** unit price × quantity over the period (§9). */
  revenueCents: number;
}

export interface ViewedWork {
  title: string;
  key: string;
  views: number;
}

export interface Analytics {
  period: AnalyticsPeriod;
  /** The shop's currency (site settings); totals in other currencies are not converted. */
  currency: string;
  /** Europe/Paris dates (YYYY-MM-DD) of the period's first and last day (today). */
  from: string;
  to: string;
  summary: SalesSummary;
  /** The previous period of equal length. */
  previous: SalesSummary;
  /** §5 percent changes, unrounded. */
  change: { revenue: number; orders: number; average: number };
  /** 'Évolution des ventes': every bucket present, zeros included. */
  sales: Bucket[];
  /** 'Ventes par type d'œuvre': line revenue (discount shared pro rata), shipping excluded. */
  byType: { originalCents: number; printCents: number };
  /** 'Comparaison mensuelle': 12 months, January first, this calendar year and the one before. */
  monthly: { labels: string[]; thisYear: number[]; lastYear: number[]; year: number };
  /** 'Œuvres les plus vendues': 5 at most, by quantity. */
  top: TopWork[];
  /** 'Œuvres les plus vues': 5 at most, by views over the period. */
  mostViewed: ViewedWork[];
  customers: {
    /** Distinct addresses of customer accounts and of paid orders (the customers screen's count). */
    total: number;
    /** First seen (account or first paid order) in the last 30 days. */
    newLast30Days: number;
    /** More than one sale. */
    returning: number;
    /** Distinct buyers ÷ visitors over the period × 100, one decimal; 0 without buyers. Visitors
     * are never fewer than buyers (every buyer visited), so it never exceeds 100. */
    conversionRate: number;
    buyers: number;
    /** Sum of each day's unique visitors (a visitor cannot be followed from one day to the next). */
    visitors: number;
    pageViews: number;
  };
}

/** What the screen shows when a load fails (§4: figures zeroed, 12 month labels with zeros). */
export const MONTH_LABELS = [
  'Janv.',
  'Févr.',
  'Mars',
  'Avr.',
  'Mai',
  'Juin',
  'Juil.',
  'Août',
  'Sept.',
  'Oct.',
  'Nov.',
  'Déc.',
] as const;
