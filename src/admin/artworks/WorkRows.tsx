// The gallery's works as rows under one header (issue 27), ordered by drag and drop with the
// mouse, a finger or the keyboard (dnd-kit), every move announced. After a move the focus goes
// back to the control that made it, on the moved work (the row itself moved in the DOM).
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
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import type { QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AdminArtworkRow } from '../../schemas/artworks.ts';
import type { Translate } from '../ui/kit.tsx';
import type { WorkActions } from './useWorkActions.ts';
import WorkRow, { ROW_GRID } from './WorkRow.tsx';

interface Props {
  works: AdminArtworkRow[];
  last: number;
  listKey: QueryKey;
  orderable: boolean;
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], selected: boolean) => void;
  onEdit: (work: AdminArtworkRow) => void;
  actions: WorkActions;
  t: Translate;
}

function Header({
  works,
  selected,
  onSelect,
  t,
}: Pick<Props, 'works' | 'selected' | 'onSelect' | 't'>) {
  const all = works.length > 0 && works.every((w) => selected.has(w.id));
  const cell = 'hidden text-xs font-semibold tracking-wide text-black/70 uppercase sm:block';
  return (
    <div className={`${ROW_GRID} border-b border-black/15 bg-black/[0.03] px-1 py-1`}>
      <label className="inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center">
        <input
          type="checkbox"
          checked={all}
          onChange={(e) =>
            onSelect(
              works.map((w) => w.id),
              e.target.checked,
            )
          }
          aria-label={t('selectAll')}
          className="size-5 accent-ink"
        />
      </label>
      <span className="col-span-4 text-sm text-black/75 sm:hidden">{t('selectAll')}</span>
      <span className="hidden sm:block" />
      <span className={`${cell} col-span-2`}>{t('colWork')}</span>
      <span className={cell}>{t('colType')}</span>
      <span className={`${cell} pr-3 text-right`}>{t('colPrice')}</span>
      <span className={cell}>{t('colState')}</span>
      <span className={`${cell} text-right`}>{t('colPosition')}</span>
      <span className="hidden sm:block" />
      <span className="hidden sm:block" />
    </div>
  );
}

export default function WorkRows(props: Props) {
  const { works, last, listKey, orderable, selected, onSelect, onEdit, actions, t } = props;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const { focusAfter } = actions;
  // issue 27 §6: focus stays on the moved work ('Haut', 'Bas', its menu or its grip).
  useEffect(() => {
    const target = focusAfter.current;
    // While the change runs its controls are disabled: wait for the list that follows it.
    if (!target || actions.busy) return;
    const row = document.querySelector(`[data-artwork-card="${target.id}"]`);
    // A disabled control (now first or last) hands the focus to its neighbour.
    const order = { up: 'up down grip', down: 'down up grip', grip: 'grip', menu: '' }[
      target.control
    ];
    const control = [...order.split(' ').filter(Boolean), 'menu']
      .map((name) =>
        row?.querySelector<HTMLButtonElement>(
          name === 'menu' ? '[data-move="menu"] button' : `[data-move="${name}"]`,
        ),
      )
      .find((button) => button && !button.disabled && button.offsetParent !== null);
    if (control) {
      control.focus();
      focusAfter.current = null;
    }
  }, [works, focusAfter, actions.busy]);

  const titleOf = (id: unknown) => works.find((w) => w.id === id)?.title.fr ?? '';
  const placeOf = (id: unknown) => works.findIndex((w) => w.id === id) + 1;
  function dropped({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = works.findIndex((w) => w.id === active.id);
    const to = works.findIndex((w) => w.id === over.id);
    void actions.reorder(listKey, arrayMove(works, from, to), Number(active.id));
  }
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={dropped}
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
      <SortableContext items={works.map((w) => w.id)} strategy={verticalListSortingStrategy}>
        <div className="rounded-lg border border-black/10 bg-white">
          <Header works={works} selected={selected} onSelect={onSelect} t={t} />
          <ul aria-label={t('title')}>
            {works.map((work) => (
              <WorkRow
                key={work.id}
                work={work}
                t={t}
                actions={actions}
                last={last}
                orderable={orderable}
                selected={selected.has(work.id)}
                onSelect={(on) => onSelect([work.id], on)}
                onEdit={() => onEdit(work)}
              />
            ))}
          </ul>
        </div>
      </SortableContext>
    </DndContext>
  );
}
