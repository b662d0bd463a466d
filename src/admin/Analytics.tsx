// The analytics screen (back office §2 "Statistiques avancées", §4, §5, §8, §9; issue 12): the
// period switch, 'Actualiser', three sales cards with their change versus the previous period,
// three charts each with its data table, the best-selling and most-viewed works, the customer
// cards. Every figure comes from GET /api/admin/analytics (computed in SQL on the server); a
// failed load shows the §8 text and zeroes every figure (§4).
import { useRef, useState, type ReactNode } from 'react';
import {
  ANALYTICS_PERIODS,
  DEFAULT_ANALYTICS_PERIOD,
  PERIOD_LABELS,
  type Analytics as Data,
  type AnalyticsPeriod,
} from '../schemas/analytics.ts';
import { adminCall } from './api.ts';
import { formatWholeMoney } from '../domain/money.ts';
import ChartPanel, { type ChartSpec } from './analytics/ChartPanel.tsx';
import {
  bestBucket,
  currencySymbol,
  formatChange,
  formatRate,
  frenchDay,
  frenchDays,
  zeroAnalytics,
  type Trend,
} from './analytics/format.ts';

interface Props {
  initial: Data;
  texts: Record<string, string>;
  /** Where the privacy page explains the visit counts. */
  privacyHref: string;
}

/** The chart colours: 3:1 or more against white (WCAG 1.4.11). */
const BLUE = 'rgb(37, 99, 235)';
const BLUE_FILL = 'rgba(37, 99, 235, 0.12)';
const DARK_BLUE = 'rgb(30, 64, 175)';
const SLATE = 'rgb(100, 116, 139)';

const TREND_STYLE: Record<Trend, { arrow: string; className: string }> = {
  up: { arrow: '▲', className: 'bg-green-50 text-green-800' },
  flat: { arrow: '▶', className: 'bg-green-50 text-green-800' },
  down: { arrow: '▼', className: 'bg-red-50 text-red-800' },
};

const CELL = 'px-2 py-2 sm:px-3';
const NUMBER = 'px-2 py-2 text-right whitespace-nowrap tabular-nums sm:px-3';

export default function Analytics({ initial, texts, privacyHref }: Props) {
  const t = (key: string, params: Record<string, string | number> = {}) =>
    Object.entries(params).reduce(
      (text, [name, value]) => text.replaceAll(`{${name}}`, String(value)),
      texts[key] ?? key,
    );
  const [period, setPeriod] = useState<AnalyticsPeriod>(initial.period);
  const [data, setData] = useState(initial);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const [announce, setAnnounce] = useState('');
  // Switching periods quickly sends several requests: only the latest one may settle the screen.
  const generation = useRef(0);

  async function load(next: AnalyticsPeriod) {
    const ticket = ++generation.current;
    setPeriod(next);
    setLoading(true);
    setAnnounce(t('loading'));
    const result = await adminCall<Data>('GET', `/api/admin/analytics?period=${next}`);
    if (ticket !== generation.current) return;
    setLoading(false);
    // The address keeps the period, so a reload or a bookmark opens the same figures.
    const url = new URL(window.location.href);
    if (next === DEFAULT_ANALYTICS_PERIOD) url.searchParams.delete('period');
    else url.searchParams.set('period', next);
    window.history.replaceState(null, '', url);
    if (result.ok) {
      setData(result.data);
      setError('');
      setAnnounce(t('loaded', { period: PERIOD_LABELS[next] }));
      return;
    }
    setError(t('error'));
    setAnnounce('');
    setData((before) =>
      zeroAnalytics(next, { currency: before.currency, year: before.monthly.year }),
    );
  }

  const { currency, summary, customers } = data;
  const eur = (cents: number) => formatWholeMoney(cents, currency);
  const unit = t(`unit.${data.period}`);
  const showData = { show: t('showData'), hide: t('hideData') };
  const dates =
    data.from && data.to ? t('dates', { from: frenchDay(data.from), to: frenchDay(data.to) }) : '';

  // 'Évolution des ventes'
  const best = bestBucket(data.sales);
  const salesTotal = data.sales.reduce((sum, bucket) => sum + bucket.revenueCents, 0);
  const salesLabel =
    data.sales.length === 0
      ? t('sales.chartEmpty')
      : t(best ? 'sales.chart' : 'sales.chartNone', {
          count: data.sales.length,
          unit,
          from: frenchDay(data.sales[0]!.from),
          to: frenchDay(data.sales.at(-1)!.to),
          total: eur(salesTotal),
          best: best ? eur(best.revenueCents) : '',
          label: best?.label ?? '',
        });
  const salesSpec: ChartSpec = {
    type: 'line',
    labels: data.sales.map((bucket) => bucket.label),
    datasets: [
      {
        label: t('sales.dataset', { currency: currencySymbol(currency) }),
        data: data.sales.map((bucket) => bucket.revenueCents / 100),
        color: BLUE,
        fill: BLUE_FILL,
      },
    ],
    legend: true,
  };

  // 'Ventes par type d'œuvre'
  const types: [string, number][] = [
    [t('byType.originals'), data.byType.originalCents],
    [t('byType.prints'), data.byType.printCents],
  ];
  const typeSpec: ChartSpec = {
    type: 'bar',
    labels: types.map(([name]) => name),
    datasets: [
      {
        label: t('sales.dataset', { currency: currencySymbol(currency) }),
        data: types.map(([, cents]) => cents / 100),
        color: [DARK_BLUE, BLUE],
      },
    ],
    legend: false,
  };

  // 'Comparaison mensuelle'
  const { monthly } = data;
  const years = [String(monthly.year), String(monthly.year - 1)];
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const monthlySpec: ChartSpec = {
    type: 'bar',
    labels: monthly.labels,
    datasets: [
      { label: years[0]!, data: monthly.thisYear.map((cents) => cents / 100), color: BLUE },
      { label: years[1]!, data: monthly.lastYear.map((cents) => cents / 100), color: SLATE },
    ],
    legend: true,
  };

  const cards: [string, string, number, string][] = [
    [t('revenue'), eur(summary.revenueCents), data.change.revenue, eur(data.previous.revenueCents)],
    [t('orders'), String(summary.orders), data.change.orders, String(data.previous.orders)],
    [t('average'), eur(summary.averageCents), data.change.average, eur(data.previous.averageCents)],
  ];

  const caption = (title: string) => (dates ? `${title}, ${dates}` : title);

  return (
    <div className="space-y-6" aria-busy={loading || undefined}>
      {/* A phone: the dates and 'Actualiser' on one line, the switch across the width below.
          Wider: dates, switch, and 'Actualiser' at the far end. */}
      <div className="flex flex-wrap items-center gap-3">
        <p className="order-1 flex-1 text-sm text-black/70 empty:hidden sm:flex-none">{dates}</p>
        <div
          role="group"
          aria-label={t('period')}
          className="order-3 flex w-full rounded-lg border border-black/20 bg-white p-0.5 sm:order-2 sm:w-auto"
        >
          {ANALYTICS_PERIODS.map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={period === value}
              onClick={() => void load(value)}
              className="min-h-11 min-w-11 flex-1 rounded-md px-3 text-sm whitespace-nowrap hover:bg-black/5 aria-pressed:bg-ink aria-pressed:text-white aria-pressed:hover:bg-ink sm:flex-none"
            >
              {PERIOD_LABELS[value]}
            </button>
          ))}
        </div>
        <button
          type="button"
          onClick={() => void load(period)}
          disabled={loading}
          className="order-2 ml-auto min-h-11 rounded border border-black/20 bg-white px-4 text-sm hover:bg-black/5 disabled:opacity-60 sm:order-3"
        >
          {loading ? t('refreshing') : t('refresh')}
        </button>
      </div>
      <p role="status" className="sr-only">
        {announce}
      </p>
      <p
        role="alert"
        className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 empty:hidden"
      >
        {error}
      </p>

      <section aria-labelledby="analytics-summary">
        <h2 id="analytics-summary" className="sr-only">
          {t('summary')}
        </h2>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3">
          {cards.map(([label, value, change, previous], index) => {
            const shown = formatChange(change);
            const style = TREND_STYLE[shown.trend];
            return (
              <div
                key={label}
                // Two per row on a phone: the third takes the whole row rather than half of it.
                className={`flex flex-col rounded-lg border border-black/10 bg-white p-4 ${index === 2 ? 'col-span-2 lg:col-span-1' : ''}`}
                data-card={label}
              >
                <dt className="text-sm text-black/70">{label}</dt>
                <dd className="mt-1 font-serif text-2xl tabular-nums md:text-3xl">{value}</dd>
                <dd className="mt-2">
                  <span
                    className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-sm font-medium tabular-nums ${style.className}`}
                  >
                    <span aria-hidden="true" className="text-[0.65rem]">
                      {style.arrow}
                    </span>
                    <span className="sr-only">{t(`trend.${shown.trend}`)}</span>
                    {shown.text}
                  </span>
                </dd>
                <dd className="mt-1 text-xs text-black/70">{t('previous', { value: previous })}</dd>
              </div>
            );
          })}
        </dl>
        <p className="mt-2 text-xs text-black/70">{t('salesNote')}</p>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <ChartPanel
          id="analytics-sales"
          className="lg:col-span-2"
          title={t('sales.title')}
          spec={salesSpec}
          currency={currency}
          label={salesLabel}
          caption={caption(t('sales.title'))}
          texts={showData}
        >
          <thead className="border-b border-black/10 bg-black/[0.03]">
            <tr>
              <th scope="col" className={CELL}>
                {t('sales.col.period')}
              </th>
              <th scope="col" className={NUMBER}>
                {t('sales.col.sales')}
              </th>
              <th scope="col" className={NUMBER}>
                {t('sales.col.orders')}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.sales.length === 0 ? (
              <EmptyRow columns={3}>{t('noData')}</EmptyRow>
            ) : (
              data.sales.map((bucket) => (
                <tr key={bucket.from} className="border-b border-black/5 last:border-0">
                  <th scope="row" className={`${CELL} font-normal`}>
                    <span className="font-medium">{bucket.label}</span>
                    <span className="block text-xs whitespace-nowrap text-black/70 sm:ml-2 sm:inline sm:text-sm">
                      {frenchDays(bucket.from, bucket.to)}
                    </span>
                  </th>
                  <td className={NUMBER}>{eur(bucket.revenueCents)}</td>
                  <td className={NUMBER}>{bucket.orders}</td>
                </tr>
              ))
            )}
          </tbody>
        </ChartPanel>

        <ChartPanel
          id="analytics-types"
          title={t('byType.title')}
          note={t('byType.note')}
          spec={typeSpec}
          currency={currency}
          label={t('byType.chart', { originals: eur(types[0]![1]), prints: eur(types[1]![1]) })}
          caption={caption(t('byType.title'))}
          texts={showData}
        >
          <thead className="border-b border-black/10 bg-black/[0.03]">
            <tr>
              <th scope="col" className={CELL}>
                {t('byType.col.type')}
              </th>
              <th scope="col" className={NUMBER}>
                {t('sales.col.sales')}
              </th>
            </tr>
          </thead>
          <tbody>
            {types.map(([name, cents]) => (
              <tr key={name} className="border-b border-black/5 last:border-0">
                <th scope="row" className={`${CELL} font-normal`}>
                  {name}
                </th>
                <td className={NUMBER}>{eur(cents)}</td>
              </tr>
            ))}
          </tbody>
        </ChartPanel>

        <ChartPanel
          id="analytics-monthly"
          title={t('monthly.title')}
          note={t('monthly.note', { year: years[0]!, lastYear: years[1]! })}
          spec={monthlySpec}
          currency={currency}
          label={t('monthly.chart', {
            year: years[0]!,
            thisTotal: eur(sum(monthly.thisYear)),
            lastYear: years[1]!,
            lastTotal: eur(sum(monthly.lastYear)),
          })}
          caption={`${t('monthly.title')}, ${years[0]} / ${years[1]}`}
          texts={showData}
        >
          <thead className="border-b border-black/10 bg-black/[0.03]">
            <tr>
              <th scope="col" className={CELL}>
                {t('monthly.col.month')}
              </th>
              <th scope="col" className={NUMBER}>
                {years[0]}
              </th>
              <th scope="col" className={NUMBER}>
                {years[1]}
              </th>
            </tr>
          </thead>
          <tbody>
            {monthly.labels.map((month, index) => (
              <tr key={month} className="border-b border-black/5 last:border-0">
                <th scope="row" className={`${CELL} font-normal`}>
                  {month}
                </th>
                <td className={NUMBER}>{eur(monthly.thisYear[index] ?? 0)}</td>
                <td className={NUMBER}>{eur(monthly.lastYear[index] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </ChartPanel>

        <WorksTable
          id="analytics-top"
          title={t('top.title')}
          empty={data.top.length === 0 ? t('top.none') : null}
          head={[t('top.col.work'), t('top.col.quantity'), t('top.col.revenue')]}
        >
          {data.top.map((work, index) => (
            <tr
              key={`${work.key ?? work.title}-${index}`}
              className="border-b border-black/5 last:border-0"
            >
              <th scope="row" className={`${CELL} font-normal`}>
                {work.title}
              </th>
              <td className={NUMBER}>{work.quantity}</td>
              <td className={NUMBER}>{eur(work.revenueCents)}</td>
            </tr>
          ))}
        </WorksTable>

        <WorksTable
          id="analytics-viewed"
          title={t('viewed.title')}
          note={t('viewed.note')}
          empty={data.mostViewed.length === 0 ? t('viewed.none') : null}
          head={[t('top.col.work'), t('viewed.col.views')]}
        >
          {data.mostViewed.map((work) => (
            <tr key={work.key} className="border-b border-black/5 last:border-0">
              <th scope="row" className={`${CELL} font-normal`}>
                {work.title}
              </th>
              <td className={NUMBER}>{work.views}</td>
            </tr>
          ))}
        </WorksTable>
      </div>

      <section aria-labelledby="analytics-customers">
        <h2 id="analytics-customers" className="font-serif text-xl">
          {t('customers.title')}
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Figure label={t('customers.total')} value={String(customers.total)} />
          <Figure
            label={t('customers.new')}
            value={String(customers.newLast30Days)}
            note={t('customers.newNote')}
          />
          <Figure
            label={t('customers.returning')}
            value={String(customers.returning)}
            note={t('customers.returningNote')}
          />
          <Figure
            label={t('customers.conversion')}
            value={formatRate(customers.conversionRate)}
            note={`${t(customers.buyers === 1 ? 'customers.buyers.one' : 'customers.buyers.other', { count: customers.buyers })} / ${t(customers.visitors === 1 ? 'customers.visitors.one' : 'customers.visitors.other', { count: customers.visitors })}`}
          />
        </dl>
        <p className="mt-2 text-xs text-black/70">
          {t('customers.privacy')}{' '}
          <a href={privacyHref} className="underline underline-offset-2">
            {t('customers.privacyLink')}
          </a>
        </p>
      </section>
    </div>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-lg border border-black/10 bg-white p-4">
      <dt className="text-sm text-black/70">{label}</dt>
      <dd className="mt-1 font-serif text-2xl tabular-nums md:text-3xl">{value}</dd>
      {note ? <dd className="mt-1 text-xs text-black/70">{note}</dd> : null}
    </div>
  );
}

function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="px-3 py-4 text-black/70">
        {children}
      </td>
    </tr>
  );
}

function WorksTable(props: {
  id: string;
  title: string;
  note?: string;
  empty: string | null;
  head: string[];
  children: ReactNode;
}) {
  const heading = `${props.id}-title`;
  return (
    <section
      aria-labelledby={heading}
      className="min-w-0 rounded-lg border border-black/10 bg-white p-4 md:p-5"
    >
      <h2 id={heading} className="font-serif text-xl">
        {props.title}
      </h2>
      {props.note ? <p className="mt-1 text-xs text-black/70">{props.note}</p> : null}
      {props.empty ? (
        <p className="mt-4 text-sm text-black/70">{props.empty}</p>
      ) : (
        // Scrolls sideways on a phone: a focusable region, so the keyboard can scroll it too.
        <div
          role="group"
          aria-labelledby={heading}
          tabIndex={0}
          className="mt-3 overflow-x-auto rounded border border-black/10"
        >
          <table className="w-full min-w-[18rem] text-left text-sm">
            <thead className="border-b border-black/10 bg-black/[0.03]">
              <tr>
                {props.head.map((name, index) => (
                  <th key={name} scope="col" className={index === 0 ? CELL : NUMBER}>
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{props.children}</tbody>
          </table>
        </div>
      )}
    </section>
  );
}
