// The analytics screen's figures (§2): the three sales cards with their change versus the previous
// period (green from 0, red below), and the four customer cards — the conversion rate only once
// enough visitors were counted to mean something (issue 27 §6).
import type { Analytics } from '../../schemas/analytics.ts';
import { formatWholeMoney } from '../../domain/money.ts';
import { INLINE_LINK, type Translate } from '../ui/kit.tsx';
import { CONVERSION_MIN_VISITORS, conversionText, formatChange, type Trend } from './format.ts';
import Section from '../ui/Section.tsx';

const TREND_STYLE: Record<Trend, { arrow: string; className: string }> = {
  up: { arrow: '▲', className: 'bg-green-50 text-green-800' },
  flat: { arrow: '▶', className: 'bg-green-50 text-green-800' },
  down: { arrow: '▼', className: 'bg-red-50 text-red-800' },
};

export function SalesCards({ t, data }: { t: Translate; data: Analytics }) {
  const eur = (cents: number) => formatWholeMoney(cents, data.currency);
  const { summary, previous, change } = data;
  const cards: [string, string, number, string][] = [
    [t('revenue'), eur(summary.revenueCents), change.revenue, eur(previous.revenueCents)],
    [t('orders'), String(summary.orders), change.orders, String(previous.orders)],
    [t('average'), eur(summary.averageCents), change.average, eur(previous.averageCents)],
  ];
  return (
    <Section id="analytics-summary" title={t('summary')} heading="sr-only">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        {cards.map(([label, value, percent, before], index) => {
          const shown = formatChange(percent);
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
              <dd className="mt-1 text-xs text-black/70">{t('previous', { value: before })}</dd>
            </div>
          );
        })}
      </dl>
      <p className="mt-2 text-xs text-black/70">{t('salesNote')}</p>
    </Section>
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

export function CustomerFigures(props: {
  t: Translate;
  customers: Analytics['customers'];
  privacyHref: string;
}) {
  const { t, customers } = props;
  const count = (key: string, value: number) =>
    t(value === 1 ? `${key}.one` : `${key}.other`, { count: value });
  const buyers = count('customers.buyers', customers.buyers);
  const visitors = count('customers.visitors', customers.visitors);
  const enough = customers.visitors >= CONVERSION_MIN_VISITORS;
  return (
    <Section id="analytics-customers" title={t('customers.title')}>
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
          value={conversionText(customers)}
          note={
            enough
              ? `${buyers} / ${visitors}`
              : t('customers.conversionTooFew', {
                  min: CONVERSION_MIN_VISITORS,
                  visitors: customers.visitors,
                  buyers,
                })
          }
        />
      </dl>
      <p className="mt-2 text-xs text-black/70">
        {t('customers.privacy')}{' '}
        <a href={props.privacyHref} className={`${INLINE_LINK} underline underline-offset-2`}>
          {t('customers.privacyLink')}
        </a>
      </p>
    </Section>
  );
}
