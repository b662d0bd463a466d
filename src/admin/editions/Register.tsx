// One edition's register (issue 26, docs/decisions/045): the work and its edition, the counts —
// coloured only when there is something to see, a 0 stays neutral (issue 27 §6) — then every
// number with its state: a table from a laptop on, a list on a phone and a tablet, where the
// actions on a returned number sit under it instead of off-screen to the right (issue 27 §5).
import type { EditionEntry, EditionRegister } from '../../schemas/admin-editions.ts';
import { BUTTON, type Translate } from '../ui/kit.tsx';
import { BodyRow, Card, CardFacts, TableHead } from '../ui/table.tsx';

const BADGE: Record<EditionEntry['state'], string> = {
  free: 'border-black/20 bg-white text-black/80',
  held: 'border-amber-700 bg-amber-50 text-amber-950',
  sold: 'border-green-800 bg-green-50 text-green-950',
  returned: 'border-red-700 bg-red-50 text-red-950',
  retired: 'border-black/40 bg-black/5 text-black/80',
  ea: 'border-sky-800 bg-sky-50 text-sky-950',
  hc: 'border-sky-800 bg-sky-50 text-sky-950',
};
/** A count of 0 says nothing is there: no alarm colour. */
const ZERO = 'border-black/15 bg-white text-black/70';
const COUNTED = ['sold', 'free', 'held', 'returned', 'retired'] as const;
const COLUMNS = ['number', 'state', 'order', 'buyer', 'date', 'notes', 'actions'] as const;

interface Props {
  t: Translate;
  register: EditionRegister;
  busy: boolean;
  onDecide: (entry: EditionEntry, decision: 'release' | 'retire') => void;
}

export function RegisterHeading({ t, register }: Pick<Props, 't' | 'register'>) {
  const { work, counts } = register;
  return (
    <div>
      <h2 className="font-serif text-2xl">{work.title}</h2>
      <p className="text-sm text-black/70">
        {t('summary', { size: work.editionSize, ea: work.ea, hc: work.hc, stock: work.stock })}
      </p>
      <ul className="mt-3 flex flex-wrap gap-2 text-sm" aria-label={t('countsLabel')}>
        {COUNTED.map((state) => (
          <li
            key={state}
            data-count={state}
            className={`rounded border px-2 py-1 ${counts[state] > 0 ? BADGE[state] : ZERO}`}
          >
            {t(`count.${state}`, { count: counts[state] })}
          </li>
        ))}
      </ul>
    </div>
  );
}

function StateBadge({ t, entry }: { t: Translate; entry: EditionEntry }) {
  return (
    <span
      className={`inline-block rounded border px-2 py-0.5 text-xs whitespace-nowrap ${BADGE[entry.state]}`}
    >
      {t(`state.${entry.state}`)}
    </span>
  );
}

/** 'Remettre en vente' for a returned number; 'Retirer' for it, or for one released and unsold. */
function Actions({ t, entry, busy, onDecide }: Omit<Props, 'register'> & { entry: EditionEntry }) {
  const canRelease = entry.state === 'returned';
  const canRetire = canRelease || (entry.state === 'free' && entry.returnedAt !== null);
  if (!canRelease && !canRetire) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {canRelease && (
        <button
          type="button"
          className={BUTTON}
          disabled={busy}
          aria-label={t('releaseLabel', { label: entry.label })}
          onClick={() => onDecide(entry, 'release')}
        >
          {t('release')}
        </button>
      )}
      {canRetire && (
        <button
          type="button"
          className={BUTTON}
          disabled={busy}
          aria-label={t('retireLabel', { label: entry.label })}
          onClick={() => onDecide(entry, 'retire')}
        >
          {t('retire')}
        </button>
      )}
    </div>
  );
}

const entryKey = (entry: EditionEntry) => `${entry.kind}-${entry.number}`;

export function RegisterTable({ t, register, busy, onDecide }: Props) {
  const caption = t('caption', { title: register.work.title });
  return (
    <div
      className="hidden overflow-x-auto rounded-lg border border-black/10 bg-white lg:block"
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead>
          {COLUMNS.map((key) => (
            <th key={key} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
              {t(`col.${key}`)}
            </th>
          ))}
        </TableHead>
        <tbody>
          {register.entries.map((entry) => (
            <BodyRow key={entryKey(entry)} data-number={entry.label} className="align-top">
              <th scope="row" className="px-3 py-2 font-mono whitespace-nowrap">
                {entry.label}
              </th>
              <td className="px-3 py-2">
                <StateBadge t={t} entry={entry} />
              </td>
              <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">
                {entry.orderNumber ?? ''}
              </td>
              <td className="max-w-[14rem] px-3 py-2">
                {entry.buyer && <span className="block truncate">{entry.buyer}</span>}
                {entry.email && (
                  <span className="block truncate text-xs text-black/70">{entry.email}</span>
                )}
              </td>
              <td className="px-3 py-2 whitespace-nowrap tabular-nums">{entry.soldDay}</td>
              <td className="px-3 py-2 text-xs text-black/80">{entry.notes}</td>
              <td className="px-3 py-1">
                <Actions t={t} entry={entry} busy={busy} onDecide={onDecide} />
              </td>
            </BodyRow>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function RegisterList({ t, register, busy, onDecide }: Props) {
  return (
    <ul className="space-y-2 lg:hidden" aria-label={t('caption', { title: register.work.title })}>
      {register.entries.map((entry) => {
        const facts = [
          ['order', entry.orderNumber],
          ['buyer', [entry.buyer, entry.email].filter(Boolean).join(' · ')],
          ['date', entry.soldDay],
          ['notes', entry.notes],
        ].filter(([, value]) => value) as [string, string][];
        return (
          <Card key={entryKey(entry)} data-entry={entry.label} className="space-y-2 p-3 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-mono font-medium">{entry.label}</span>
              <StateBadge t={t} entry={entry} />
            </div>
            {facts.length > 0 && (
              <CardFacts facts={facts.map(([key, value]) => [t(`col.${key}`), value] as const)} />
            )}
            <Actions t={t} entry={entry} busy={busy} onDecide={onDecide} />
          </Card>
        );
      })}
    </ul>
  );
}
