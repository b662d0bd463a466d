// What the owner can do to the works selected in the list (issue 27): hide, publish, move to the
// top or the bottom, delete. It stays in view while the list scrolls.
import { BUTTON, type Translate } from '../ui/kit.tsx';

export type BulkAction = 'hide' | 'publish' | 'top' | 'bottom' | 'delete';

interface Props {
  count: number;
  busy: boolean;
  /** Moves order the whole gallery: not while searching or filtering. */
  orderable: boolean;
  onAction: (action: BulkAction) => void;
  onClear: () => void;
  t: Translate;
}

export default function BulkBar({ count, busy, orderable, onAction, onClear, t }: Props) {
  const actions: BulkAction[] = orderable
    ? ['publish', 'hide', 'top', 'bottom', 'delete']
    : ['publish', 'hide', 'delete'];
  return (
    // On a phone: the count and "Désélectionner" on one line, the actions three to a line below
    // (a bar as tall as a third of the screen hid the rows it acts on); one line from `sm` up.
    <div
      role="region"
      aria-label={t('bulkLabel')}
      className="sticky top-0 z-20 grid grid-cols-[1fr_auto] items-center gap-2 rounded-lg border border-ink/20 bg-sky-50 p-2 shadow-sm sm:flex sm:flex-wrap"
    >
      <p className="px-2 text-sm font-medium" aria-live="polite">
        {t('selected', { count })}
      </p>
      <div className="col-span-2 grid grid-cols-3 gap-2 sm:flex sm:flex-1 sm:flex-wrap">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            disabled={busy}
            onClick={() => onAction(action)}
            className={`${BUTTON} px-3 text-center leading-tight ${action === 'delete' ? 'text-red-800' : ''}`}
          >
            {t(`bulk.${action}`)}
          </button>
        ))}
      </div>
      <button
        type="button"
        onClick={onClear}
        className={`${BUTTON} col-start-2 row-start-1 border-transparent bg-transparent px-3`}
      >
        {t('clearSelection')}
      </button>
    </div>
  );
}
