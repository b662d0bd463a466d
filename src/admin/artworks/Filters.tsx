// The works list's search, filters and view (back office §2; issue 27: 'Archivées'). The search
// box answers at once; the query the list asks for follows a short pause while typing.
import type { ArtworkListQuery } from '../../schemas/artworks.ts';
import { SearchBox, type Translate } from '../ui/kit.tsx';

export type Filter = Required<Pick<ArtworkListQuery, 'q'>> &
  Pick<ArtworkListQuery, 'category' | 'type'> & { archived: boolean };

interface Props {
  filter: Filter;
  onChange: (change: Partial<Filter>) => void;
  counts: { total: number; archived: number };
  t: Translate;
}

const SELECT = 'min-h-11 rounded border border-field bg-white px-2';

export default function Filters({ filter, onChange, counts, t }: Props) {
  const tab = (archived: boolean) =>
    `inline-flex min-h-11 items-center rounded-md px-3 text-sm ${
      filter.archived === archived
        ? 'bg-white font-medium shadow-sm'
        : 'text-black/75 hover:text-ink'
    }`;
  return (
    <div className="space-y-3">
      <div role="group" aria-label={t('view')} className="inline-flex rounded-lg bg-black/5 p-1">
        <button
          type="button"
          aria-pressed={!filter.archived}
          className={tab(false)}
          onClick={() => onChange({ archived: false })}
        >
          {t('tabGallery', { count: counts.total })}
        </button>
        <button
          type="button"
          aria-pressed={filter.archived}
          className={tab(true)}
          onClick={() => onChange({ archived: true })}
        >
          {t('tabArchived', { count: counts.archived })}
        </button>
      </div>
      <div className="grid gap-2 sm:grid-cols-[1fr_auto_auto]">
        <SearchBox t={t} value={filter.q} onChange={(q) => onChange({ q })} />
        <div className="flex gap-2">
          <label className="flex flex-1 items-center gap-2 text-sm">
            {t('category')}
            <select
              value={filter.category ?? ''}
              onChange={(e) =>
                onChange({ category: (e.target.value || undefined) as Filter['category'] })
              }
              className={`${SELECT} flex-1`}
            >
              <option value="">{t('all')}</option>
              {(['peinture', 'sculpture', 'mixte'] as const).map((c) => (
                <option key={c} value={c}>
                  {t(`cat.${c}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-1 items-center gap-2 text-sm">
            {t('type')}
            <select
              value={filter.type ?? ''}
              onChange={(e) => onChange({ type: (e.target.value || undefined) as Filter['type'] })}
              className={`${SELECT} flex-1`}
            >
              <option value="">{t('allTypes')}</option>
              <option value="original">{t('typeOriginal')}</option>
              <option value="print">{t('typePrint')}</option>
            </select>
          </label>
        </div>
      </div>
    </div>
  );
}
