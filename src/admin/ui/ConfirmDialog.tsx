// A confirmation in a real modal dialog (<dialog>, showModal): the page behind is inert, Escape and
// 'Annuler' cancel, the least harmful button has the focus first, and the focus goes back to what
// opened it. Used by the settings screen for maintenance and for discarding unsaved changes, and
// by the customers screen to erase a customer.
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { BUTTON } from './kit.tsx';

interface Props {
  id: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Where the focus returns when the dialog closes (the control that opened it). */
  returnFocus?: RefObject<HTMLElement | null>;
  tone?: 'danger' | 'neutral';
  /** The confirm button waits for something (the customers screen: the address typed again). */
  confirmDisabled?: boolean;
}

export default function ConfirmDialog({
  id,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  returnFocus,
  tone = 'neutral',
  confirmDisabled = false,
}: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const confirmed = useRef(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    // The safe choice has the keyboard, but a long text on a phone starts from its title.
    cancel.current?.focus({ preventScroll: true });
    element.scrollTop = 0;
    const opener = returnFocus?.current;
    return () => {
      if (element.open) element.close();
      opener?.focus();
    };
    // A ref object: the same for the dialog's whole life, so this runs once, at opening.
  }, [returnFocus]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={() => (confirmed.current ? onConfirm() : onCancel())}
      className="m-auto max-h-[92vh] w-[min(36rem,calc(100vw-1rem))] overflow-y-auto rounded-lg bg-paper p-0 text-ink shadow-xl backdrop:bg-black/50"
    >
      <div className="space-y-4 p-5 md:p-7">
        <h2 id={`${id}-title`} className="font-serif text-2xl">
          {title}
        </h2>
        <div id={`${id}-body`} className="space-y-3 text-[0.95rem] leading-relaxed">
          {children}
        </div>
        <div className="flex flex-col-reverse gap-3 border-t border-black/10 pt-4 sm:flex-row sm:justify-end">
          <button
            ref={cancel}
            type="button"
            className={BUTTON}
            onClick={() => dialog.current?.close()}
          >
            {cancelLabel}
          </button>
          <button
            type="button"
            disabled={confirmDisabled}
            className={`inline-flex min-h-11 items-center justify-center rounded px-5 text-sm font-medium text-white disabled:cursor-not-allowed disabled:opacity-60 ${
              tone === 'danger' ? 'bg-red-800 hover:bg-red-900' : 'bg-ink hover:bg-black'
            }`}
            onClick={() => {
              confirmed.current = true;
              dialog.current?.close();
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
