// The analytics screen (back office §2 "Statistiques avancées", §4, §5, §8, §9; issues 12, 27): the
// period switch, 'Actualiser', three sales cards with their change versus the previous period,
// three charts each with its data table, the best-selling and most-viewed works, the customer
// cards. Every figure comes from GET /api/admin/analytics (computed in SQL on the server) through
// TanStack Query — one query per period, the first from the page, so a slow answer for an older
// period never replaces a newer one; a failed load shows the §8 text and zeroes every figure (§4).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formatWholeMoney } from '../domain/money.ts';
import {
  DEFAULT_ANALYTICS_PERIOD,
  PERIOD_LABELS,
  type Analytics as Data,
  type AnalyticsPeriod,
} from '../schemas/analytics.ts';
import { MonthlyChart, SalesChart, TypesChart } from './analytics/Charts.tsx';
import { CustomerFigures, SalesCards } from './analytics/Figures.tsx';
import { frenchDay, zeroAnalytics } from './analytics/format.ts';
import PeriodBar from './analytics/PeriodBar.tsx';
import { CELL, NUMBER, ROW, WorksTable } from './analytics/table.tsx';
import { adminFetch, adminKeys, withAdminQuery } from './query.tsx';
import { translator, type Texts } from './ui/kit.tsx';

interface Props {
  initial: Data;
  texts: Texts;
  /** Where the privacy page explains the visit counts. */
  privacyHref: string;
}

const keyOf = (period: AnalyticsPeriod) => adminKeys.analytics.list({ period });

/** The address keeps the period, so a reload or a bookmark opens the same figures. */
function keepInAddress(period: AnalyticsPeriod) {
  const url = new URL(window.location.href);
  if (period === DEFAULT_ANALYTICS_PERIOD) url.searchParams.delete('period');
  else url.searchParams.set('period', period);
  window.history.replaceState(null, '', url);
}

function Analytics({ initial, texts, privacyHref }: Props) {
  const t = translator(texts);
  const client = useQueryClient();
  const [period, setPeriod] = useState<AnalyticsPeriod>(initial.period);
  // Whether the owner asked for figures since the page came: only then the address and the
  // screen reader hear of it.
  const [asked, setAsked] = useState(false);
  const query = useQuery({
    queryKey: keyOf(period),
    queryFn: () => adminFetch<Data>('GET', `/api/admin/analytics?period=${period}`),
    initialData: period === initial.period ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  const loading = query.isFetching;
  const failed = query.isError;
  // §4: a failed load zeroes every figure; the currency and year are kept (settings, not figures).
  const last = query.data ?? initial;
  const data = failed
    ? zeroAnalytics(period, { currency: last.currency, year: last.monthly.year })
    : last;

  useEffect(() => {
    if (asked) keepInAddress(period);
  }, [asked, period]);

  /** §2: a switch, or 'Actualiser', reloads all the figures of that period. */
  function load(next: AnalyticsPeriod) {
    setAsked(true);
    if (next === period) {
      void query.refetch();
      return;
    }
    void client.invalidateQueries({ queryKey: keyOf(next), refetchType: 'none' });
    setPeriod(next);
  }

  const announce = loading
    ? t('loading')
    : asked && !failed
      ? t('loaded', { period: PERIOD_LABELS[period] })
      : '';
  const dates =
    data.from && data.to ? t('dates', { from: frenchDay(data.from), to: frenchDay(data.to) }) : '';
  const caption = (title: string) => (dates ? `${title}, ${dates}` : title);
  const eur = (cents: number) => formatWholeMoney(cents, data.currency);

  return (
    <div className="space-y-6" aria-busy={loading || undefined}>
      <PeriodBar t={t} dates={dates} period={period} loading={loading} onLoad={load} />
      <p role="status" className="sr-only">
        {announce}
      </p>
      <p
        role="alert"
        className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 empty:hidden"
      >
        {failed && !loading ? t('error') : ''}
      </p>

      <SalesCards t={t} data={data} />

      <div className="grid gap-6 lg:grid-cols-2">
        <SalesChart t={t} data={data} caption={caption} />
        <TypesChart t={t} data={data} caption={caption} />
        <MonthlyChart t={t} data={data} />
        <WorksTable
          id="analytics-top"
          title={t('top.title')}
          empty={data.top.length === 0 ? t('top.none') : null}
          head={[t('top.col.work'), t('top.col.quantity'), t('top.col.revenue')]}
        >
          {data.top.map((work, index) => (
            <tr key={`${work.key ?? work.title}-${index}`} className={ROW}>
              <th scope="row" className={`${CELL} font-normal`}>
                {work.title}
                <span className="block text-xs text-black/70">{t(`top.type.${work.type}`)}</span>
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
            <tr key={work.key} className={ROW}>
              <th scope="row" className={`${CELL} font-normal`}>
                {work.title}
              </th>
              <td className={NUMBER}>{work.views}</td>
            </tr>
          ))}
        </WorksTable>
      </div>

      <CustomerFigures t={t} customers={data.customers} privacyHref={privacyHref} />
    </div>
  );
}

export default withAdminQuery(Analytics);
