// The works screen (back office §2 "Gestion des œuvres", §4, §5, §8; issues 11 and 27): the count,
// search and filters (in SQL, on the server), the works as dense rows with a "⋯" menu each, several
// selected at once, the archived works to restore, reset of the order, the add / edit form, and
// toasts that say what happened. Server state lives in the query cache (src/admin/query.tsx).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { AdminArtwork, AdminArtworkRow } from '../schemas/artworks.ts';
import ArchivedRows from './artworks/ArchivedRows.tsx';
import BulkBar, { type BulkAction } from './artworks/BulkBar.tsx';
import Filters, { type Filter } from './artworks/Filters.tsx';
import { Toasts, useToasts } from './artworks/toasts.tsx';
import { useWorkActions, type WorkList } from './artworks/useWorkActions.ts';
import WorkRows from './artworks/WorkRows.tsx';
import { nudgePublish } from './publish-store.ts';
import { AdminCallError, adminFetch, adminKeys, withAdminQuery } from './query.tsx';
import { BUTTON, PRIMARY, translator, type Texts, EmptyState } from './ui/kit.tsx';

// The editor (its form library and the kernel's schemas) loads when the owner opens it: the list
// is what the screen shows first, within the back office's script budget (bench/admin.ts).
const ArtworkForm = lazy(() => import('./ArtworkForm.tsx'));

interface Props {
  initial: WorkList;
  texts: Texts;
}

const FIRST: Filter = { q: '', archived: false };
const same = (a: Filter, b: Filter) =>
  a.q.trim() === b.q.trim() &&
  a.category === b.category &&
  a.type === b.type &&
  a.archived === b.archived;

function searchOf(filter: Filter): string {
  const params = new URLSearchParams({ q: filter.q.trim() });
  if (filter.category) params.set('category', filter.category);
  if (filter.type) params.set('type', filter.type);
  if (filter.archived) params.set('archived', '1');
  return params.toString();
}

/** The filter as typed, and the one the list asks for (a short pause while typing). */
function useFilter() {
  const [filter, setFilter] = useState<Filter>(FIRST);
  const [asked, setAsked] = useState<Filter>(FIRST);
  useEffect(() => {
    const timer = window.setTimeout(() => setAsked(filter), filter.q === asked.q ? 0 : 250);
    return () => window.clearTimeout(timer);
  }, [filter, asked.q]);
  return { filter, asked, change: (c: Partial<Filter>) => setFilter((f) => ({ ...f, ...c })) };
}

function Artworks({ initial, texts }: Props) {
  const t = translator(texts);
  const client = useQueryClient();
  const { toasts, toast, dismiss } = useToasts();
  const actions = useWorkActions(t, toast);
  const { filter, asked, change } = useFilter();
  const listKey = adminKeys.artworks.list(asked);
  const { data: list = initial, isPlaceholderData: loading } = useQuery({
    queryKey: listKey,
    queryFn: () => adminFetch<WorkList>('GET', `/api/admin/artworks?${searchOf(asked)}`),
    initialData: same(asked, FIRST) ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [editing, setEditing] = useState<AdminArtwork | 'new' | null>(null);
  const orderable = !(asked.q.trim() || asked.category || asked.type);
  // Only works still shown stay selected.
  // While the other view loads, the previous list stays: never its works under the wrong view.
  const works = list.artworks.filter((w) => (w.archivedAt !== null) === asked.archived);
  const chosen = works.filter((w) => selected.has(w.id)).map((w) => w.id);

  const select = (ids: number[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });
  async function bulk(action: BulkAction) {
    if (await actions.bulk(action, chosen)) setSelected(new Set());
  }
  /** The form gets the work whole and fresh (the list leaves out what only the form shows). */
  async function edit(work: AdminArtworkRow) {
    try {
      const { artwork } = await adminFetch<{ artwork: AdminArtwork }>(
        'GET',
        `/api/admin/artworks/${work.id}`,
      );
      setEditing(artwork);
    } catch (error) {
      actions.failure(t('toast.loadError'), error);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-black/75">{t('count', { count: list.total })}</p>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={BUTTON}
            disabled={actions.busy}
            onClick={() => void actions.reset()}
          >
            {t('reset')}
          </button>
          <button type="button" className={PRIMARY} onClick={() => setEditing('new')}>
            {t('add')}
          </button>
        </div>
      </div>
      <Filters filter={filter} onChange={change} counts={list} t={t} />
      <p className="text-sm text-black/70" aria-live="polite">
        {t('results', { count: works.length })}
      </p>
      {asked.archived ? (
        loading && works.length === 0 ? null : (
          <ArchivedRows works={works} actions={actions} t={t} />
        )
      ) : works.length === 0 ? (
        loading ? null : (
          <EmptyState title={t('empty')}>{t('emptyHint')}</EmptyState>
        )
      ) : (
        <>
          {!orderable && <p className="text-sm text-black/70">{t('dragFiltered')}</p>}
          {chosen.length > 0 && (
            <BulkBar
              count={chosen.length}
              busy={actions.busy}
              orderable={orderable}
              onAction={(action) => void bulk(action)}
              onClear={() => setSelected(new Set())}
              t={t}
            />
          )}
          <WorkRows
            works={works}
            last={list.total}
            listKey={listKey}
            orderable={orderable}
            selected={selected}
            onSelect={select}
            onEdit={(work) => void edit(work)}
            actions={actions}
            t={t}
          />
        </>
      )}
      {editing && (
        <Suspense>
          <ArtworkForm
            work={editing === 'new' ? null : editing}
            originals={works.filter((w) => w.type === 'original')}
            texts={texts}
            onClose={() => setEditing(null)}
            onSaved={(_saved, added) => {
              setEditing(null);
              toast('success', added ? t('toast.added') : t('toast.saved'));
              nudgePublish();
              void client.invalidateQueries({ queryKey: adminKeys.artworks.all });
            }}
            onFailure={(error, added) =>
              actions.failure(
                added ? t('toast.addError') : t('toast.updateError'),
                new AdminCallError(error),
              )
            }
          />
        </Suspense>
      )}
      <Toasts toasts={toasts} dismiss={dismiss} t={t} />
    </div>
  );
}

export default withAdminQuery(Artworks);
