// The orders dialogs' question groups (issue 27): a fieldset with its legend and its own error
// (tied by aria-describedby), and a radio answer at least 44 px tall, ready for react-hook-form's
// `register` (its ref and handlers pass through).
import {
  forwardRef,
  type ComponentProps,
  type FormEventHandler,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
} from 'react';
import { BUTTON, PRIMARY, rich, type Translate } from '../ui/kit.tsx';
import Modal from '../ui/Modal.tsx';

/** An order's dialog (`order-<kind>`): its title ('Expédier la commande n° {number}', the
 * screen's `<kind>.title`) keeps the order number on one line. */
export function OrderModal({
  kind,
  number,
  t,
  ...modal
}: {
  kind: 'detail' | 'ship' | 'cancel' | 'refund';
  number: string;
  t: Translate;
} & Omit<ComponentProps<typeof Modal>, 'id' | 'title' | 'closeLabel'>) {
  return (
    <Modal
      id={`order-${kind}`}
      title={rich(t(`${kind}.title`), {
        number: <span className="whitespace-nowrap">{number}</span>,
      })}
      closeLabel={t('detail.close')}
      {...modal}
    />
  );
}

/** A dialog's form: the server's refusal first, announced, then the questions. */
export function OrderForm({
  refusal,
  onSubmit,
  formRef,
  children,
}: {
  refusal: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  formRef?: Ref<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-4">
      <p role="alert" className="text-sm font-medium text-red-800 empty:hidden">
        {refusal}
      </p>
      {children}
    </form>
  );
}

const DANGER =
  'inline-flex min-h-11 items-center justify-center rounded bg-red-800 px-5 text-sm font-medium text-white hover:bg-red-900 disabled:opacity-60';

/** A dialog's form buttons: back, then the action ('Enregistrement...' while it runs); stacked on
 * a phone with the action on top. `danger` for what gives money back or cancels. */
export function FormActions({
  t,
  busy,
  confirm,
  onBack,
  danger = false,
}: {
  t: Translate;
  busy: boolean;
  confirm: string;
  onBack: () => void;
  danger?: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-3 border-t border-black/10 pt-4 sm:flex-row sm:justify-end">
      <button type="button" className={BUTTON} onClick={onBack} disabled={busy}>
        {t('back')}
      </button>
      <button type="submit" className={danger ? DANGER : PRIMARY} disabled={busy}>
        {busy ? t('saving') : confirm}
      </button>
    </div>
  );
}

export function Group({
  name,
  legend,
  error,
  children,
}: {
  name: string;
  legend: string;
  error: string | undefined;
  children: ReactNode;
}) {
  const errorId = `order-${name}-error`;
  return (
    <fieldset
      className="space-y-1 rounded border border-black/15 bg-white px-4 pt-1 pb-3"
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="px-1 font-medium">{legend}</legend>
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      {children}
    </fieldset>
  );
}

type ChoiceProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { children: ReactNode };

export const Choice = forwardRef<HTMLInputElement, ChoiceProps>(function Choice(
  { children, ...input },
  ref,
) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3">
      <input ref={ref} type="radio" {...input} className="size-5 shrink-0 accent-ink" />
      {children}
    </label>
  );
});
