// The back office's modal (a real <dialog> opened with showModal, as ConfirmDialog is), used by
// the orders and customers screens: the page behind is inert, Escape and '×' close it, the focus
// starts on '×' and goes back to what opened it — or, when that row was redrawn meanwhile, to its
// twin with the same id.
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

interface Props {
  id: string;
  /** A node, so an order number can be kept on one line (no break at its hyphens). */
  title: ReactNode;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
  /** Lets the screen close it (after an erasure) the way Escape would. */
  handle?: RefObject<HTMLDialogElement | null>;
  /** Wide for an order's detail (its tables), medium for a customer's, narrow for a question. */
  size?: 'wide' | 'medium' | 'narrow';
}

const WIDTHS = {
  wide: 'w-[min(56rem,calc(100vw-1rem))]',
  medium: 'w-[min(52rem,calc(100vw-1rem))]',
  narrow: 'w-[min(36rem,calc(100vw-1rem))]',
} as const;

export default function Modal({
  id,
  title,
  closeLabel,
  onClose,
  children,
  handle,
  size = 'narrow',
}: Props) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (handle) handle.current = element;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    element.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
    element.scrollTop = 0;
    return () => {
      if (element.open) element.close();
      if (opener?.isConnected) opener.focus();
      else if (opener?.id) document.getElementById(opener.id)?.focus();
    };
    // A ref object: the same for the dialog's whole life, so this runs once, at opening.
  }, [handle]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      // React passes a nested dialog's close (the erase confirmation) up its tree: only our own.
      onClose={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={`m-auto max-h-[92vh] overflow-y-auto rounded-lg bg-paper p-0 text-ink shadow-xl backdrop:bg-black/50 ${WIDTHS[size]}`}
    >
      <DialogHeader
        id={`${id}-title`}
        title={title}
        closeLabel={closeLabel}
        onClose={() => dialog.current?.close()}
        autoFocus
      />
      <div className="p-5 md:p-7">{children}</div>
    </dialog>
  );
}

/**
 * A dialog's title and its '×', kept in view while a long dialog scrolls (the work form is five
 * screens long on a phone). `autoFocus` puts the focus on '×' when the dialog opens (Modal).
 */
export function DialogHeader(props: {
  id: string;
  title: ReactNode;
  closeLabel: string;
  onClose: () => void;
  autoFocus?: boolean;
}) {
  return (
    <div className="sticky top-0 z-10 flex items-start justify-between gap-3 border-b border-black/10 bg-paper px-5 py-4 md:px-7">
      <h2 id={props.id} className="font-serif text-2xl leading-tight">
        {props.title}
      </h2>
      <button
        type="button"
        aria-label={props.closeLabel}
        data-autofocus={props.autoFocus || undefined}
        onClick={props.onClose}
        className="-mr-2 inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center rounded text-2xl leading-none hover:bg-black/5"
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
