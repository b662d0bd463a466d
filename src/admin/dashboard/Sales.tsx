// The revenue of the last 30 Paris days (issue 27 §4): a bar sparkline drawn in a few lines of SVG
// (chart.js stays on the analytics screen: the dashboard's JS stays small), its figures said in
// words to a screen reader, and the same figures as a table under a <details>.
import type { DashboardDay } from '../../schemas/dashboard.ts';
import { formatMoney } from '../../domain/money.ts';
import type { Translate } from '../ui/kit.tsx';

// The days are calendar dates (Paris days already): written in UTC, so server and browser agree.
const SHORT = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const LONG = new Intl.DateTimeFormat('fr-FR', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const at = (day: string) => new Date(`${day}T00:00:00Z`);
export const shortDay = (day: string) => SHORT.format(at(day));

const W = 300;
const H = 64;

function Sparkline({ days, label }: { days: DashboardDay[]; label: string }) {
  const max = Math.max(...days.map((d) => d.revenueCents), 1);
  const slot = W / days.length;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      className="mt-4 block h-16 w-full text-ink"
      data-sparkline
    >
      <line x1="0" x2={W} y1={H - 0.5} y2={H - 0.5} stroke="currentColor" strokeOpacity="0.25" />
      {days.map((d, i) => {
        const h = d.revenueCents > 0 ? Math.max(3, (d.revenueCents / max) * (H - 4)) : 0;
        return h > 0 ? (
          <rect
            key={d.day}
            x={i * slot + slot * 0.15}
            y={H - h}
            width={slot * 0.7}
            height={h}
            rx="1"
            fill="currentColor"
          />
        ) : null;
      })}
    </svg>
  );
}

export function Sales({ days, t }: { days: DashboardDay[]; t: Translate }) {
  const total = days.reduce((sum, d) => sum + d.revenueCents, 0);
  const count = days.reduce((sum, d) => sum + d.orders, 0);
  const best = days.reduce((a, b) => (b.revenueCents > a.revenueCents ? b : a), days[0]!);
  const from = shortDay(days[0]!.day);
  const to = shortDay(days.at(-1)!.day);
  const label =
    total === 0
      ? t('sales.chartEmpty', { from, to })
      : t('sales.chart', {
          from,
          to,
          total: formatMoney(total),
          best: `${shortDay(best.day)}, ${formatMoney(best.revenueCents)}`,
        });
  const sales =
    count === 0
      ? t('sales.count.none')
      : count === 1
        ? t('sales.count.one')
        : t('sales.count.many', { count });
  return (
    <section
      aria-labelledby="sales-title"
      className="rounded-lg border border-black/10 bg-white p-4"
    >
      <h2 id="sales-title" className="font-serif text-xl">
        {t('sales.title')}
      </h2>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-3">
        <span className="font-serif text-2xl md:text-3xl" data-sales-total>
          {formatMoney(total)}
        </span>
        <span className="text-sm text-black/70">{sales}</span>
      </p>
      <Sparkline days={days} label={label} />
      <p aria-hidden="true" className="mt-1 flex justify-between text-xs text-black/70">
        <span>{from}</span>
        <span>{to}</span>
      </p>
      <details className="mt-2">
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-sm underline underline-offset-4">
          {t('sales.table')}
        </summary>
        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">{t('sales.title')}</caption>
          <thead className="border-b border-black/10">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                {t('sales.col.day')}
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                {t('sales.col.revenue')}
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                {t('sales.col.orders')}
              </th>
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.day} className="border-b border-black/5 last:border-0">
                <th scope="row" className="py-1 pr-3 font-normal">
                  <time dateTime={d.day}>{LONG.format(at(d.day))}</time>
                </th>
                <td className="py-1 pr-3 text-right tabular-nums">{formatMoney(d.revenueCents)}</td>
                <td className="py-1 text-right tabular-nums">{d.orders}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
