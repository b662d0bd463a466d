// One work as a dense row of the list (issue 27; Shopify's products list): selection, drag grip,
// thumbnail, title, type, price, state, position, 'Haut' / 'Bas' and the "⋯" menu. On a phone the
// same row is a compact card: thumbnail, title and one line of facts, grip and menu.
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { LOW_STOCK } from '../../domain/stock-warning.ts';
import type { AdminArtworkRow } from '../../schemas/artworks.ts';
import { formatMoney } from '../../domain/money.ts';
import Menu, { type MenuItem } from '../ui/Menu.tsx';
import type { Translate } from '../ui/kit.tsx';
import type { WorkActions } from './useWorkActions.ts';

/** The columns of the header and of every row, from the small screen's breakpoint up. */
export const ROW_GRID =
  'grid grid-cols-[2.75rem_3rem_minmax(0,1fr)_2.75rem_2.75rem] items-center gap-x-2 sm:grid-cols-[2.75rem_2.75rem_3.5rem_minmax(0,1fr)_5.5rem_7.5rem_10rem_4.5rem_5.75rem_2.75rem]';
const ICON =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded text-base hover:bg-black/5 disabled:cursor-not-allowed disabled:opacity-35';

interface Props {
  work: AdminArtworkRow;
  t: Translate;
  actions: WorkActions;
  last: number;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onEdit: () => void;
  /** Drag and move are off while searching or filtering (they order the whole list). */
  orderable: boolean;
}

export function Badges({ work, t }: { work: AdminArtworkRow; t: Translate }) {
  const badge = 'rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap';
  return (
    <span className="flex flex-wrap gap-1">
      <span
        className={`${badge} ${work.isAvailable ? 'bg-green-100 text-green-900' : 'bg-ink text-white'}`}
      >
        {work.isAvailable ? t('online') : t('hidden')}
      </span>
      {work.type === 'original' && work.isSold && (
        <span className={`${badge} bg-accent text-white`}>{t('sold')}</span>
      )}
      {work.type === 'print' && work.stock === 0 && (
        <span className={`${badge} bg-accent text-white`}>{t('outOfStock')}</span>
      )}
      {work.type === 'print' && work.stock > 0 && work.stock <= LOW_STOCK && (
        <span className={`${badge} bg-amber-200 text-amber-950`}>{t('lowStock')}</span>
      )}
      {work.highlight && (
        <span className={`${badge} border border-ink/40 text-ink`}>
          {t(work.highlight === 'hero' ? 'badgeHero' : 'badgeFeatured')}
        </span>
      )}
    </span>
  );
}

export function Thumb({ work, t }: { work: AdminArtworkRow; t: Translate }) {
  return work.image ? (
    <img
      src={`/media/${work.image.sha256}/400.webp`}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      className="size-12 rounded object-cover sm:size-14"
    />
  ) : (
    <span className="flex size-12 items-center justify-center rounded bg-black/5 text-center text-[0.625rem] leading-tight text-black/70 sm:size-14">
      {t('noImage')}
    </span>
  );
}

function menuItems(work: AdminArtworkRow, props: Props): MenuItem[] {
  const { t, actions, last, orderable, onEdit } = props;
  const items: MenuItem[] = [
    { label: t('edit'), onSelect: onEdit },
    {
      label: work.isAvailable ? t('hide') : t('show'),
      onSelect: () => void actions.toggleVisible(work),
    },
  ];
  if (work.type === 'original' && !work.isSold)
    items.push({ label: t('markSold'), onSelect: () => void actions.markSold(work) });
  items.push(
    {
      group: t('highlight'),
      label: t('highlightHero'),
      disabled: work.highlight === 'hero',
      onSelect: () => void actions.highlight(work, 'hero'),
    },
    {
      label: t('highlightFeatured'),
      disabled: work.highlight === 'featured',
      onSelect: () => void actions.highlight(work, 'featured'),
    },
  );
  if (work.highlight)
    items.push({ label: t('highlightClear'), onSelect: () => void actions.highlight(work, null) });
  if (orderable)
    items.push(
      {
        group: t('colPosition'),
        label: t('up'),
        disabled: work.position <= 1,
        onSelect: () => void actions.move(work, 'up', 'menu'),
      },
      {
        label: t('down'),
        disabled: work.position >= last,
        onSelect: () => void actions.move(work, 'down', 'menu'),
      },
    );
  items.push({
    group: '',
    label: t('delete'),
    tone: 'danger',
    onSelect: () => void actions.remove(work),
  });
  return items;
}

export default function WorkRow(props: Props) {
  const { work, t, actions, last, selected, onSelect, orderable } = props;
  const sortable = useSortable({ id: work.id, disabled: !orderable || actions.busy });
  const title = work.title.fr;
  const type = work.type === 'original' ? t('typeOriginal') : t('typePrint');
  // An original and its print share a title: the type tells their controls apart when heard.
  const named = { title, type: type.toLowerCase() };
  const price = formatMoney(work.priceCents);
  return (
    <li
      ref={sortable.setNodeRef}
      data-artwork-card={work.id}
      style={{
        transform: CSS.Transform.toString(sortable.transform),
        transition: sortable.transition,
      }}
      className={`${ROW_GRID} relative border-b border-black/10 py-2 pr-1 pl-1 sm:py-1.5 ${selected ? 'bg-sky-50' : 'bg-white'} ${sortable.isDragging ? 'z-10 shadow-xl ring-2 ring-ink' : ''}`}
    >
      <label className="row-span-2 inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center sm:row-span-1">
        <input
          type="checkbox"
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
          aria-label={t('select', named)}
          className="size-5 accent-ink"
        />
      </label>
      <span className="order-4 row-span-2 sm:order-none sm:row-span-1">
        {orderable ? (
          <button
            type="button"
            ref={sortable.setActivatorNodeRef}
            {...sortable.attributes}
            {...sortable.listeners}
            data-move="grip"
            aria-label={t('dragLabel', named)}
            className={`${ICON} cursor-grab touch-none text-black/70`}
          >
            <span aria-hidden="true">⠿</span>
          </button>
        ) : (
          <span className="inline-block min-w-11" />
        )}
      </span>
      <span className="row-span-2 sm:row-span-1">
        <Thumb work={work} t={t} />
      </span>
      <div className="min-w-0 self-end sm:self-center">
        {/* Editing is the menu's first item: a title target would crowd the phone's card (axe
            target-size at 390 px). */}
        <h2 className="truncate text-sm font-medium">{title}</h2>
        <p className="truncate text-xs text-black/70">
          <span className="sm:hidden">
            {type} · {price}
          </span>
          <span className="hidden sm:inline">
            {[work.technique.fr, work.dimensions, work.year].filter(Boolean).join(' · ')}
          </span>
        </p>
      </div>
      <span className="hidden text-sm sm:block">{type}</span>
      <span className="hidden pr-3 text-right text-sm tabular-nums sm:block">{price}</span>
      {/* On a phone, under the title (one copy of the badges for both layouts). */}
      <span className="col-start-3 row-start-2 pt-1 sm:col-start-auto sm:row-start-auto sm:pt-0">
        <Badges work={work} t={t} />
        <span className="mt-0.5 hidden text-xs text-black/70 sm:block">
          {work.type === 'print'
            ? t('stock', { n: work.stock })
            : work.isSold
              ? t('sold')
              : t('available')}
        </span>
      </span>
      <span className="hidden text-right text-sm tabular-nums sm:block">{work.position}</span>
      <span className="hidden justify-end sm:flex">
        {orderable && (
          <>
            <button
              type="button"
              data-move="up"
              aria-label={t('up')}
              title={t('upLabel', { title })}
              disabled={actions.busy || work.position <= 1}
              onClick={() => void actions.move(work, 'up', 'up')}
              className={ICON}
            >
              <span aria-hidden="true">↑</span>
            </button>
            <button
              type="button"
              data-move="down"
              aria-label={t('down')}
              title={t('downLabel', { title })}
              disabled={actions.busy || work.position >= last}
              onClick={() => void actions.move(work, 'down', 'down')}
              className={ICON}
            >
              <span aria-hidden="true">↓</span>
            </button>
          </>
        )}
      </span>
      <span className="order-5 row-span-2 sm:order-none sm:row-span-1" data-move="menu">
        <Menu label={t('actionsFor', named)} items={menuItems(work, props)} />
      </span>
    </li>
  );
}
