// A "⋯" menu button (issue 27; WAI-ARIA menu button pattern): the button opens a list of actions
// below it; arrows, Home and End move between them, Escape or a click elsewhere closes it and the
// focus goes back to the button; Tab closes it too. On a phone it is a sheet at the bottom of the
// screen over the dimmed page. Items may be grouped under a label.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
  tone?: 'danger';
  /** A group label shown above this item (e.g. 'Mettre en avant'); '' draws a plain separator. */
  group?: string;
}

interface Props {
  /** The button's accessible name ('Actions pour « Seuil »'). */
  label: string;
  items: MenuItem[];
  /** What the button shows; '⋯' by default. */
  children?: ReactNode;
  className?: string;
}

const itemsOf = (list: HTMLUListElement | null) =>
  Array.from(list?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? []);

const ITEM =
  'flex min-h-11 w-full items-center px-4 text-left text-sm hover:bg-black/5 focus:bg-black/10 focus:outline-none disabled:cursor-not-allowed disabled:opacity-50';

export default function Menu({ label, items, children, className }: Props) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const scrim = useRef<HTMLDivElement>(null);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    itemsOf(list.current)[0]?.focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      const mine = [list, button, scrim].some((ref) => ref.current?.contains(target));
      if (!mine) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  function onKeyDown(event: KeyboardEvent) {
    const all = itemsOf(list.current);
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const go = (index: number) => all[(index + all.length) % all.length]?.focus();
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      go(at + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      go(at - 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      go(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      go(all.length - 1);
    } else if (event.key === 'Tab') close(false);
  }

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className={
          className ??
          'inline-flex min-h-11 min-w-11 items-center justify-center rounded text-lg leading-none hover:bg-black/5 aria-expanded:bg-black/10'
        }
      >
        {children ?? <span aria-hidden="true">⋯</span>}
      </button>
      {open && (
        // On a phone the open menu is a sheet at the bottom of the screen over the dimmed page, and
        // a tap on the page only closes it. As a list under its button, its lower edge cut across
        // the buttons of the rows below, leaving slivers of them to tap (WCAG 2.5.8, axe's
        // target-size), and it ran past the end of the screen.
        <div
          ref={scrim}
          aria-hidden="true"
          onClick={() => close(true)}
          className="fixed inset-0 z-30 bg-black/25 sm:hidden"
        />
      )}
      {open && (
        <ul
          ref={list}
          id={id}
          role="menu"
          aria-label={label}
          onKeyDown={onKeyDown}
          className="fixed inset-x-0 bottom-0 z-40 max-h-[85dvh] overflow-y-auto rounded-t-xl border border-black/15 bg-white pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] shadow-xl sm:absolute sm:inset-x-auto sm:right-0 sm:bottom-auto sm:mt-1 sm:max-h-none sm:min-w-56 sm:overflow-hidden sm:rounded-lg sm:py-1"
        >
          {/* Which row the sheet acts on, once the row is hidden behind it. */}
          <li role="none" className="border-b border-black/10 px-4 pt-1 pb-3 sm:hidden">
            <p role="presentation" className="font-medium">
              {label}
            </p>
          </li>
          {items.map((item, index) => (
            <li key={`${item.group ?? ''}${item.label}`} role="none">
              {item.group === '' && <hr className="my-1 border-black/10" />}
              {item.group && (
                <p
                  role="presentation"
                  className={`px-4 pt-2 pb-1 text-xs font-semibold tracking-wide text-black/70 uppercase ${index > 0 ? 'mt-1 border-t border-black/10' : ''}`}
                >
                  {item.group}
                </p>
              )}
              <button
                type="button"
                role="menuitem"
                disabled={item.disabled}
                onClick={() => {
                  close(true);
                  item.onSelect();
                }}
                className={`${ITEM} ${item.tone === 'danger' ? 'text-red-800' : ''}`}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
