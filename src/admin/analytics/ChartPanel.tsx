// One chart of the analytics screen (issue 12) with its accessible equivalent: a canvas that
// names its content in one sentence (role="img"), and under it the same numbers as a real table,
// shown on demand. chart.js arrives with the first chart, through a dynamic import, so no other
// screen pays for it; the chart is updated in place when the figures change and destroyed with
// the component.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Chart as ChartType, ChartConfiguration } from 'chart.js';
import { formatWholeMoney } from '../../domain/money.ts';

export interface ChartSpec {
  type: 'line' | 'bar';
  labels: string[];
  datasets: {
    label: string;
    /** In currency units (euros), not cents. */
    data: number[];
    /** One colour, or one per bar. */
    color: string | string[];
    /** The area under a line. */
    fill?: string;
  }[];
  legend: boolean;
}

let loading: Promise<typeof import('./chart-setup.ts')> | undefined;
/** chart.js, fetched once for every chart of the screen. */
const loadCharts = () => (loading ??= import('./chart-setup.ts'));

/** The ink of the admin theme: 10:1 on white, for axis labels and the legend. */
const TEXT = 'rgb(55, 65, 81)';
const GRID = 'rgba(0, 0, 0, 0.08)';

function configOf(spec: ChartSpec, currency: string): ChartConfiguration {
  // WCAG 2.3.3: no animation for those who asked their system for less motion.
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const line = spec.type === 'line';
  return {
    type: spec.type,
    data: {
      labels: spec.labels,
      datasets: spec.datasets.map((set) => ({
        label: set.label,
        data: set.data,
        borderColor: set.color,
        backgroundColor: line ? (set.fill ?? set.color) : set.color,
        ...(line
          ? {
              fill: set.fill !== undefined,
              tension: 0.4,
              borderWidth: 2,
              pointRadius: spec.labels.length > 14 ? 2 : 3,
              pointHoverRadius: 5,
              pointBackgroundColor: set.color,
            }
          : { borderRadius: 3, maxBarThickness: 48 }),
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: still ? false : { duration: 400 },
      color: TEXT,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: {
          display: spec.legend,
          labels: { color: TEXT, boxWidth: 12, boxHeight: 12 },
        },
        tooltip: {
          callbacks: {
            label: (item) =>
              `${item.dataset.label ?? ''} : ${formatWholeMoney(item.parsed.y! * 100, currency)}`,
          },
        },
      },
      scales: {
        x: {
          grid: { display: false },
          ticks: {
            color: TEXT,
            font: { size: 11 },
            maxRotation: 0,
            autoSkip: true,
            autoSkipPadding: 4,
          },
        },
        y: {
          beginAtZero: true,
          grid: { color: GRID },
          ticks: {
            color: TEXT,
            maxTicksLimit: 5,
            // Whole units only: an empty chart reads 0 € – 1 €, not 0 € – 1 € – 1 €.
            precision: 0,
            callback: (value) => formatWholeMoney(Number(value) * 100, currency),
          },
        },
      },
    },
  };
}

function ChartCanvas({
  spec,
  currency,
  label,
}: {
  spec: ChartSpec;
  currency: string;
  label: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<ChartType | null>(null);
  const key = JSON.stringify([spec, currency]);

  // Redraw when the figures change, not on every render: the effect reads them from `key`, the
  // one value it depends on.
  useEffect(() => {
    const [spec, currency] = JSON.parse(key) as [ChartSpec, string];
    let current = true;
    void loadCharts().then(({ Chart }) => {
      const element = canvas.current;
      if (!current || !element) return;
      const config = configOf(spec, currency);
      if (chart.current) {
        chart.current.data = config.data;
        chart.current.options = config.options ?? {};
        chart.current.update();
      } else {
        Chart.defaults.font.family = getComputedStyle(element).fontFamily;
        chart.current = new Chart(element, config);
      }
      // What the chart now shows, for the end-to-end tests and anyone inspecting the page.
      element.dataset['points'] = String(spec.labels.length);
    });
    return () => {
      current = false;
    };
  }, [key]);

  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
    },
    [],
  );

  return (
    <div className="relative h-60 md:h-72">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

interface Props {
  id: string;
  title: string;
  spec: ChartSpec;
  currency: string;
  /** One sentence saying what the chart shows (the canvas's accessible name). */
  label: string;
  note?: string;
  caption: string;
  texts: { show: string; hide: string };
  /** The table's head and body, with the chart's numbers. */
  children: ReactNode;
  className?: string;
}

export default function ChartPanel(props: Props) {
  const [open, setOpen] = useState(false);
  const heading = `${props.id}-title`;
  return (
    <section
      aria-labelledby={heading}
      className={`min-w-0 self-start rounded-lg border border-black/10 bg-white p-4 md:p-5 ${props.className ?? ''}`}
    >
      <h2 id={heading} className="font-serif text-xl">
        {props.title}
      </h2>
      {props.note ? <p className="mt-1 text-xs text-black/70">{props.note}</p> : null}
      <div className="mt-4">
        <ChartCanvas spec={props.spec} currency={props.currency} label={props.label} />
      </div>
      <details className="group mt-3" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-2 rounded px-2 text-sm underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ink [&::-webkit-details-marker]:hidden">
          <span
            aria-hidden="true"
            className="inline-block transition-transform group-open:rotate-90 motion-reduce:transition-none"
          >
            ▸
          </span>
          {open ? props.texts.hide : props.texts.show}
        </summary>
        {/* Scrolls sideways on a phone: a focusable region, so the keyboard can scroll it too. */}
        <div
          role="group"
          aria-label={props.caption}
          tabIndex={0}
          className="mt-2 max-w-2xl overflow-x-auto rounded border border-black/10"
        >
          <table className="w-full min-w-[16rem] text-left text-sm">
            <caption className="px-3 pt-2 text-left text-xs text-black/70">{props.caption}</caption>
            {props.children}
          </table>
        </div>
      </details>
    </section>
  );
}
