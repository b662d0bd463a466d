// The analytics screen's controls (§2): the period's dates, the switch (7 jours, 30 jours, 90 jours,
// 1 an) and 'Actualiser'. A phone: the dates and 'Actualiser' on one line, the switch across the
// width below; wider: dates, switch, and 'Actualiser' at the far end.
import { ANALYTICS_PERIODS, PERIOD_LABELS, type AnalyticsPeriod } from '../../schemas/analytics.ts';
import { RefreshButton, type Translate } from '../ui/kit.tsx';
import ToggleGroup from '../ui/ToggleGroup.tsx';

interface Props {
  t: Translate;
  dates: string;
  period: AnalyticsPeriod;
  loading: boolean;
  onLoad: (period: AnalyticsPeriod) => void;
}

export default function PeriodBar({ t, dates, period, loading, onLoad }: Props) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <p className="order-1 flex-1 text-sm text-black/70 empty:hidden sm:flex-none">{dates}</p>
      <ToggleGroup
        label={t('period')}
        options={ANALYTICS_PERIODS.map((value) => [value, PERIOD_LABELS[value]] as const)}
        value={period}
        onChoose={onLoad}
        className="order-3 flex w-full rounded-lg border border-black/20 bg-white p-0.5 sm:order-2 sm:w-auto"
        buttonClassName="min-h-11 min-w-11 flex-1 rounded-md px-3 text-sm whitespace-nowrap hover:bg-black/5 aria-pressed:bg-ink aria-pressed:text-white aria-pressed:hover:bg-ink sm:flex-none"
      />
      <RefreshButton
        t={t}
        busy={loading}
        onRefresh={() => onLoad(period)}
        className="order-2 ml-auto sm:order-3"
      />
    </div>
  );
}
