// The analytics screen's three charts (§2), each with the table of its numbers (ChartPanel.tsx):
// 'Évolution des ventes', 'Ventes par type d'œuvre', 'Comparaison mensuelle'.
import type { Analytics } from '../../schemas/analytics.ts';
import { formatWholeMoney } from '../../domain/money.ts';
import type { Translate } from '../ui/kit.tsx';
import ChartPanel, { type ChartSpec } from './ChartPanel.tsx';
import { bestBucket, currencySymbol, frenchDays, frenchDay } from './format.ts';
import { CELL, EmptyRow, HEAD, NUMBER, ROW } from './table.tsx';

/** The chart colours: 3:1 or more against white (WCAG 1.4.11). */
const BLUE = 'rgb(37, 99, 235)';
const BLUE_FILL = 'rgba(37, 99, 235, 0.12)';
const DARK_BLUE = 'rgb(30, 64, 175)';
const SLATE = 'rgb(100, 116, 139)';

interface Props {
  t: Translate;
  data: Analytics;
  /** A chart's table caption: its title and the period's dates. */
  caption: (title: string) => string;
}

const euros = (data: Analytics) => (cents: number) => formatWholeMoney(cents, data.currency);
const showData = (t: Translate) => ({ show: t('showData'), hide: t('hideData') });

export function SalesChart({ t, data, caption }: Props) {
  const eur = euros(data);
  const best = bestBucket(data.sales);
  const total = data.sales.reduce((sum, bucket) => sum + bucket.revenueCents, 0);
  const label =
    data.sales.length === 0
      ? t('sales.chartEmpty')
      : t(best ? 'sales.chart' : 'sales.chartNone', {
          count: data.sales.length,
          unit: t(`unit.${data.period}`),
          from: frenchDay(data.sales[0]!.from),
          to: frenchDay(data.sales.at(-1)!.to),
          total: eur(total),
          best: best ? eur(best.revenueCents) : '',
          label: best?.label ?? '',
        });
  const spec: ChartSpec = {
    type: 'line',
    labels: data.sales.map((bucket) => bucket.label),
    datasets: [
      {
        label: t('sales.dataset', { currency: currencySymbol(data.currency) }),
        data: data.sales.map((bucket) => bucket.revenueCents / 100),
        color: BLUE,
        fill: BLUE_FILL,
      },
    ],
    legend: true,
  };
  return (
    <ChartPanel
      id="analytics-sales"
      className="lg:col-span-2"
      title={t('sales.title')}
      spec={spec}
      currency={data.currency}
      label={label}
      caption={caption(t('sales.title'))}
      texts={showData(t)}
    >
      <thead className={HEAD}>
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
            <tr key={bucket.from} className={ROW}>
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
  );
}

export function TypesChart({ t, data, caption }: Props) {
  const eur = euros(data);
  const types: [string, number][] = [
    [t('byType.originals'), data.byType.originalCents],
    [t('byType.prints'), data.byType.printCents],
  ];
  const spec: ChartSpec = {
    type: 'bar',
    labels: types.map(([name]) => name),
    datasets: [
      {
        label: t('sales.dataset', { currency: currencySymbol(data.currency) }),
        data: types.map(([, cents]) => cents / 100),
        color: [DARK_BLUE, BLUE],
      },
    ],
    legend: false,
  };
  return (
    <ChartPanel
      id="analytics-types"
      title={t('byType.title')}
      note={t('byType.note')}
      spec={spec}
      currency={data.currency}
      label={t('byType.chart', { originals: eur(types[0]![1]), prints: eur(types[1]![1]) })}
      caption={caption(t('byType.title'))}
      texts={showData(t)}
    >
      <thead className={HEAD}>
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
          <tr key={name} className={ROW}>
            <th scope="row" className={`${CELL} font-normal`}>
              {name}
            </th>
            <td className={NUMBER}>{eur(cents)}</td>
          </tr>
        ))}
      </tbody>
    </ChartPanel>
  );
}

export function MonthlyChart({ t, data }: Omit<Props, 'caption'>) {
  const eur = euros(data);
  const { monthly } = data;
  const years = [String(monthly.year), String(monthly.year - 1)] as const;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const spec: ChartSpec = {
    type: 'bar',
    labels: monthly.labels,
    datasets: [
      { label: years[0], data: monthly.thisYear.map((cents) => cents / 100), color: BLUE },
      { label: years[1], data: monthly.lastYear.map((cents) => cents / 100), color: SLATE },
    ],
    legend: true,
  };
  return (
    <ChartPanel
      id="analytics-monthly"
      title={t('monthly.title')}
      note={t('monthly.note', { year: years[0], lastYear: years[1] })}
      spec={spec}
      currency={data.currency}
      label={t('monthly.chart', {
        year: years[0],
        thisTotal: eur(sum(monthly.thisYear)),
        lastYear: years[1],
        lastTotal: eur(sum(monthly.lastYear)),
      })}
      caption={`${t('monthly.title')}, ${years[0]} / ${years[1]}`}
      texts={showData(t)}
    >
      <thead className={HEAD}>
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
          <tr key={month} className={ROW}>
            <th scope="row" className={`${CELL} font-normal`}>
              {month}
            </th>
            <td className={NUMBER}>{eur(monthly.thisYear[index] ?? 0)}</td>
            <td className={NUMBER}>{eur(monthly.lastYear[index] ?? 0)}</td>
          </tr>
        ))}
      </tbody>
    </ChartPanel>
  );
}
