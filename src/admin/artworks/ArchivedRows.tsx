// The 'Archivées' view (issue 27): works deleted after they were ordered, kept for the orders'
// history, each with the day it was archived and 'Restaurer' (it comes back hidden, last).
import type { AdminArtworkRow } from '../../schemas/artworks.ts';
import { formatMoney } from '../../domain/money.ts';
import { BUTTON, type Translate } from '../ui/kit.tsx';
import { frenchDay } from '../ui/format.ts';
import type { WorkActions } from './useWorkActions.ts';
import { Thumb } from './WorkRow.tsx';

export default function ArchivedRows({
  works,
  actions,
  t,
}: {
  works: AdminArtworkRow[];
  actions: WorkActions;
  t: Translate;
}) {
  if (works.length === 0)
    return (
      <div className="rounded-lg border border-black/10 bg-white p-8 text-center">
        <p className="font-serif text-xl">{t('archivedEmpty')}</p>
        <p className="mt-2 text-black/70">{t('archivedHint')}</p>
      </div>
    );
  return (
    <>
      <p className="text-sm text-black/70">{t('archivedHint')}</p>
      <ul className="overflow-hidden rounded-lg border border-black/10 bg-white">
        {works.map((work) => (
          <li
            key={work.id}
            data-archived-work={work.id}
            className="flex items-center gap-3 border-b border-black/10 p-2 last:border-b-0"
          >
            <Thumb work={work} t={t} />
            <div className="min-w-0 flex-1">
              <h2 className="truncate text-sm font-medium">{work.title.fr}</h2>
              <p className="truncate text-xs text-black/70">
                {work.type === 'original' ? t('typeOriginal') : t('typePrint')} ·{' '}
                {formatMoney(work.priceCents)}
                {work.archivedAt && <> · {t('archivedOn', { date: frenchDay(work.archivedAt) })}</>}
              </p>
            </div>
            <button
              type="button"
              disabled={actions.busy}
              aria-label={t('restoreLabel', { title: work.title.fr })}
              onClick={() => void actions.restore(work)}
              className={BUTTON}
            >
              {t('restore')}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
