// The works screen (back office §2 "Gestion des œuvres", §4, §5, §8; issue 11): count, search
// (on the server, in SQL), category and type filters, the cards with their actions, reset of the
// order, the add / edit form, and toasts that say what happened (5 s, dismissable, announced).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  arrayMove,
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { LOW_STOCK, type AdminArtwork, type ArtworkListQuery } from '../schemas/artworks.ts';
import { formatMoney } from '../domain/money.ts';
import { adminCall, announceChange, type AdminError } from './api.ts';
import ArtworkForm from './ArtworkForm.tsx';

type Texts = Record<string, string>;

interface Props {
  initial: { total: number; artworks: AdminArtwork[] };
  texts: Texts;
}

interface Toast {
  id: number;
  tone: 'success' | 'error';
  text: string;
}

/** back office §9: a toast hides itself after 5 seconds. */
const TOAST_MS = 5000;
const BUTTON =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded border border-black/20 bg-white px-3 text-sm hover:bg-black/5 disabled:cursor-not-allowed disabled:opacity-50';

export default function Artworks({ initial, texts }: Props) {
  const t = (key: string, params: Record<string, string | number> = {}) =>
    Object.entries(params).reduce(
      (text, [name, value]) => text.replaceAll(`{${name}}`, String(value)),
      texts[key] ?? key,
    );
  const [list, setList] = useState(initial);
  const [query, setQuery] = useState<ArtworkListQuery>({ q: '' });
  const [busy, setBusy] = useState(false);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [editing, setEditing] = useState<AdminArtwork | 'new' | null>(null);
  const nextToast = useRef(1);
  const firstLoad = useRef(true);

  const toast = (tone: Toast['tone'], text: string) => {
    const id = nextToast.current++;
    setToasts((all) => [...all, { id, tone, text }]);
    window.setTimeout(() => setToasts((all) => all.filter((x) => x.id !== id)), TOAST_MS);
  };
  const failure = (fallback: string, error: AdminError) =>
    toast(
      'error',
      error.code === 'version_conflict'
        ? t('toast.conflict')
        : error.code === 'network'
          ? fallback
          : t('toast.error', { message: error.message }),
    );

  async function reload(q: ArtworkListQuery = query): Promise<void> {
    const params = new URLSearchParams({ q: q.q });
    if (q.category) params.set('category', q.category);
    if (q.type) params.set('type', q.type);
    const result = await adminCall<Props['initial']>('GET', `/api/admin/artworks?${params}`);
    if (result.ok) setList(result.data);
    else toast('error', t('toast.loadError'));
  }

  // Searching and filtering ask the server (a short pause while typing).
  useEffect(() => {
    if (firstLoad.current) {
      firstLoad.current = false;
      return;
    }
    const timer = window.setTimeout(() => void reload(query), 250);
    return () => window.clearTimeout(timer);
  }, [query]);

  async function act(
    call: () => Promise<{ ok: true } | { ok: false; error: AdminError }>,
    success: string,
    fallback: string,
  ) {
    setBusy(true);
    const result = await call();
    setBusy(false);
    if (result.ok) {
      toast('success', success);
      announceChange();
    } else failure(fallback, result.error);
    await reload();
  }

  /** The form gets the work whole and fresh (the list leaves the descriptions out). */
  async function edit(work: AdminArtwork) {
    const result = await adminCall<{ artwork: AdminArtwork }>(
      'GET',
      `/api/admin/artworks/${work.id}`,
    );
    if (result.ok) setEditing(result.data.artwork);
    else failure(t('toast.loadError'), result.error);
  }

  const patch = (work: AdminArtwork, body: object) =>
    adminCall('PATCH', `/api/admin/artworks/${work.id}`, { version: work.version, ...body });

  const title = (work: AdminArtwork) => work.title.fr;
  // Drag and drop (mouse, touch, keyboard) orders the whole list: only without search or filters.
  const filtered = Boolean(query.q.trim() || query.category || query.type);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const titleOf = (id: unknown) => list.artworks.find((w) => w.id === id)?.title.fr ?? '';
  const placeOf = (id: unknown) => list.artworks.findIndex((w) => w.id === id) + 1;
  async function dropped({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = list.artworks.findIndex((w) => w.id === active.id);
    const to = list.artworks.findIndex((w) => w.id === over.id);
    const moved = arrayMove(list.artworks, from, to);
    setList((l) => ({ ...l, artworks: moved.map((w, i) => ({ ...w, position: i + 1 })) }));
    await act(
      () => adminCall('POST', '/api/admin/artworks/order', { ids: moved.map((w) => w.id) }),
      t('toast.moved'),
      t('toast.moveError'),
    );
  }
  const last = list.total;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-black/75">{t('count', { count: list.total })}</p>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={BUTTON}
            disabled={busy}
            onClick={() => {
              if (!window.confirm(t('confirmReset'))) return;
              void act(
                () => adminCall('POST', '/api/admin/artworks/order/reset'),
                t('toast.resetDone'),
                t('toast.resetError'),
              );
            }}
          >
            {t('reset')}
          </button>
          <button
            type="button"
            className="min-h-11 rounded bg-ink px-4 text-sm font-medium text-white"
            onClick={() => setEditing('new')}
          >
            {t('add')}
          </button>
        </div>
      </div>

      <div className="grid gap-3 sm:grid-cols-[1fr_auto_auto]">
        <label className="block">
          <span className="sr-only">{t('searchLabel')}</span>
          <input
            type="search"
            value={query.q}
            placeholder={t('search')}
            onChange={(e) => setQuery((q) => ({ ...q, q: e.target.value }))}
            className="block min-h-11 w-full rounded border border-field bg-white px-3"
          />
        </label>
        <label className="flex items-center gap-2 text-sm">
          {t('category')}
          <select
            value={query.category ?? ''}
            onChange={(e) =>
              setQuery((q) => ({
                ...q,
                category: (e.target.value || undefined) as ArtworkListQuery['category'],
              }))
            }
            className="min-h-11 rounded border border-field bg-white px-2"
          >
            <option value="">{t('all')}</option>
            {(['peinture', 'sculpture', 'mixte'] as const).map((c) => (
              <option key={c} value={c}>
                {t(`cat.${c}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          {t('type')}
          <select
            value={query.type ?? ''}
            onChange={(e) =>
              setQuery((q) => ({
                ...q,
                type: (e.target.value || undefined) as ArtworkListQuery['type'],
              }))
            }
            className="min-h-11 rounded border border-field bg-white px-2"
          >
            <option value="">{t('allTypes')}</option>
            <option value="original">{t('typeOriginal')}</option>
            <option value="print">{t('typePrint')}</option>
          </select>
        </label>
      </div>
      <p className="text-sm text-black/70" aria-live="polite">
        {t('results', { count: list.artworks.length })}
      </p>

      {list.artworks.length === 0 ? (
        <div className="rounded-lg border border-black/10 bg-white p-8 text-center">
          <p className="font-serif text-xl">{t('empty')}</p>
          <p className="mt-2 text-black/70">{t('emptyHint')}</p>
        </div>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={(event) => void dropped(event)}
          accessibility={{
            screenReaderInstructions: { draggable: t('dragInstructions') },
            announcements: {
              onDragStart: ({ active }) =>
                t('dragStart', { title: titleOf(active.id), n: placeOf(active.id) }),
              onDragOver: ({ active, over }) =>
                over ? t('dragOver', { title: titleOf(active.id), n: placeOf(over.id) }) : '',
              onDragEnd: ({ active, over }) =>
                t('dragEnd', { title: titleOf(active.id), n: placeOf(over?.id ?? active.id) }),
              onDragCancel: ({ active }) => t('dragCancel', { title: titleOf(active.id) }),
            },
          }}
        >
          <SortableContext items={list.artworks.map((w) => w.id)} strategy={rectSortingStrategy}>
            {filtered && <p className="text-sm text-black/70">{t('dragFiltered')}</p>}
            <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
              {list.artworks.map((work) => (
                <SortableCard
                  key={work.id}
                  id={work.id}
                  disabled={filtered || busy}
                  handleLabel={t('dragLabel', { title: title(work) })}
                  handleText={t('drag')}
                >
                  <div className="relative aspect-[4/3] bg-black/5">
                    {work.image ? (
                      <img
                        src={`/media/${work.image.sha256}/400.webp`}
                        alt=""
                        width={400}
                        height={300}
                        loading="lazy"
                        className="h-full w-full object-cover"
                      />
                    ) : (
                      <span className="flex h-full items-center justify-center text-sm text-black/60">
                        {t('noImage')}
                      </span>
                    )}
                    <span className="absolute top-2 left-2 flex flex-wrap gap-1 text-xs">
                      <span className="rounded bg-white/95 px-2 py-0.5 font-medium">
                        {work.type === 'original' ? t('typeOriginal') : t('typePrint')}
                      </span>
                      {work.type === 'original' && work.isSold && (
                        <span className="rounded bg-accent px-2 py-0.5 font-medium text-white">
                          {t('sold')}
                        </span>
                      )}
                      {work.type === 'print' && work.stock <= LOW_STOCK && (
                        <span className="rounded bg-amber-200 px-2 py-0.5 font-medium text-amber-950">
                          {t('lowStock')}
                        </span>
                      )}
                      {!work.isAvailable && (
                        <span className="rounded bg-ink px-2 py-0.5 font-medium text-white">
                          {t('hidden')}
                        </span>
                      )}
                    </span>
                  </div>
                  <div className="flex flex-1 flex-col gap-1 p-4">
                    <h2 className="font-serif text-lg">{title(work)}</h2>
                    <p className="text-sm text-black/75">{work.technique.fr}</p>
                    <p className="text-sm text-black/75">
                      {[work.dimensions, work.year].filter(Boolean).join(' · ')}
                    </p>
                    <p className="font-medium">{formatMoney(work.priceCents)}</p>
                    <p className="text-sm">
                      {work.type === 'print'
                        ? t('stock', { n: work.stock })
                        : work.isSold
                          ? t('sold')
                          : t('available')}
                      <span className="text-black/60">
                        {' '}
                        · {t('position', { n: work.position })}
                      </span>
                    </p>
                    <div className="mt-auto flex flex-wrap gap-2 pt-3">
                      <button
                        type="button"
                        className={BUTTON}
                        title={work.isAvailable ? t('hide') : t('show')}
                        disabled={busy}
                        onClick={() =>
                          void act(
                            () => patch(work, { isAvailable: !work.isAvailable }),
                            work.isAvailable ? t('toast.hidden') : t('toast.shown'),
                            t('toast.updateError'),
                          )
                        }
                      >
                        {work.isAvailable ? t('hide') : t('show')}
                      </button>
                      <button
                        type="button"
                        className={BUTTON}
                        title={t('up')}
                        disabled={busy || work.position <= 1}
                        onClick={() =>
                          void act(
                            () =>
                              adminCall('POST', `/api/admin/artworks/${work.id}/move`, {
                                direction: 'up',
                              }),
                            t('toast.moved'),
                            t('toast.moveError'),
                          )
                        }
                      >
                        {t('up')}
                      </button>
                      <button
                        type="button"
                        className={BUTTON}
                        title={t('down')}
                        disabled={busy || work.position >= last}
                        onClick={() =>
                          void act(
                            () =>
                              adminCall('POST', `/api/admin/artworks/${work.id}/move`, {
                                direction: 'down',
                              }),
                            t('toast.moved'),
                            t('toast.moveDown'),
                          )
                        }
                      >
                        {t('down')}
                      </button>
                      <button
                        type="button"
                        className={BUTTON}
                        title={t('edit')}
                        onClick={() => void edit(work)}
                      >
                        {t('edit')}
                      </button>
                      {work.type === 'original' && !work.isSold && (
                        <button
                          type="button"
                          className={BUTTON}
                          title={t('markSold')}
                          disabled={busy}
                          onClick={() => {
                            if (!window.confirm(t('confirmSold', { title: title(work) }))) return;
                            void act(
                              () => patch(work, { isSold: true }),
                              t('toast.soldDone'),
                              t('toast.updateError'),
                            );
                          }}
                        >
                          {t('soldButton')}
                        </button>
                      )}
                      <button
                        type="button"
                        className={`${BUTTON} text-red-800`}
                        title={t('delete')}
                        disabled={busy}
                        onClick={() => {
                          if (!window.confirm(t('confirmDelete', { title: title(work) }))) return;
                          setBusy(true);
                          void adminCall<{ archived: boolean }>(
                            'DELETE',
                            `/api/admin/artworks/${work.id}`,
                          ).then(async (result) => {
                            setBusy(false);
                            if (result.ok) {
                              toast(
                                'success',
                                result.data.archived ? t('toast.archived') : t('toast.deleted'),
                              );
                              announceChange();
                            } else failure(t('toast.deleteError'), result.error);
                            await reload();
                          });
                        }}
                      >
                        {t('delete')}
                      </button>
                    </div>
                  </div>
                </SortableCard>
              ))}
            </ul>
          </SortableContext>
        </DndContext>
      )}

      {editing && (
        <ArtworkForm
          work={editing === 'new' ? null : editing}
          originals={list.artworks.filter((w) => w.type === 'original')}
          texts={texts}
          onClose={() => setEditing(null)}
          onSaved={(saved, added) => {
            setEditing(null);
            toast('success', added ? t('toast.added') : t('toast.saved'));
            announceChange();
            void reload();
            void saved;
          }}
          onFailure={(error, added) =>
            error.code === 'version_conflict'
              ? toast('error', t('toast.conflict'))
              : failure(added ? t('toast.addError') : t('toast.updateError'), error)
          }
        />
      )}

      <div
        role="status"
        aria-live="polite"
        className="fixed right-4 bottom-4 z-50 w-[min(24rem,calc(100vw-2rem))]"
      >
        <ul className="flex flex-col gap-2">
          {toasts.map((item) => (
            <li
              key={item.id}
              className={`flex items-start gap-3 rounded-lg border p-3 text-sm shadow-lg ${
                item.tone === 'success'
                  ? 'border-green-800 bg-green-50 text-green-950'
                  : 'border-red-700 bg-red-50 text-red-950'
              }`}
            >
              <span className="flex-1">{item.text}</span>
              <button
                type="button"
                aria-label={t('toast.close')}
                className="min-h-6 min-w-6 rounded px-1 leading-none"
                onClick={() => setToasts((all) => all.filter((x) => x.id !== item.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** A card that can be dragged by its handle, with the mouse, a finger or the keyboard. */
function SortableCard({
  id,
  disabled,
  handleLabel,
  handleText,
  children,
}: {
  id: number;
  disabled: boolean;
  handleLabel: string;
  handleText: string;
  children: ReactNode;
}) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id, disabled });
  return (
    <li
      ref={setNodeRef}
      data-artwork-card={id}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`relative flex flex-col overflow-hidden rounded-lg border border-black/10 bg-white ${isDragging ? 'z-10 shadow-xl ring-2 ring-ink' : ''}`}
    >
      {!disabled && (
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={handleLabel}
          className="absolute top-2 right-2 z-10 inline-flex min-h-11 min-w-11 cursor-grab touch-none items-center justify-center gap-1 rounded border border-black/20 bg-white/95 px-2 text-sm"
        >
          <span aria-hidden="true">⠿</span> {handleText}
        </button>
      )}
      {children}
    </li>
  );
}
