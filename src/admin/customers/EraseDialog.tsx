// 'Effacer ce client ?' (issue 13 point 8): what goes and what the law keeps, then the customer's
// address typed again — a react-hook-form form on the kernel's erase schema, refined by the
// kernel's own rule (confirmsErase), so the island and the server agree on what confirms. The
// confirm button waits for a matching address; the dialog is the kit's.
import type { RefObject } from 'react';
import { useWatch } from 'react-hook-form';
import {
  confirmsErase,
  customerEraseSchema,
  ERASE_MISMATCH,
  type CustomerErase,
} from '../../schemas/admin-customers.ts';
import ConfirmDialog from '../ui/ConfirmDialog.tsx';
import { useAdminForm } from '../ui/form.ts';
import { INPUT, rich, type Translate } from '../ui/kit.tsx';

const eraseConfirmation = customerEraseSchema.refine(
  (value) => confirmsErase(value.email, value.confirmation),
  { path: ['confirmation'], error: ERASE_MISMATCH },
);

interface Props {
  t: Translate;
  email: string;
  /** The button that opened it: the focus goes back there. */
  returnFocus: RefObject<HTMLElement | null>;
  onErase: (erase: CustomerErase) => void;
  onCancel: () => void;
}

export default function EraseDialog({ t, email, returnFocus, onErase, onCancel }: Props) {
  const form = useAdminForm(eraseConfirmation, { defaultValues: { email, confirmation: '' } });
  const typed = useWatch({ control: form.control, name: 'confirmation' });
  const error = form.formState.errors.confirmation?.message;
  return (
    <ConfirmDialog
      id="customer-erase"
      title={t('erase.title')}
      tone="danger"
      confirmLabel={t('erase.confirm')}
      cancelLabel={t('erase.cancel')}
      confirmDisabled={!confirmsErase(email, typed)}
      returnFocus={returnFocus}
      onConfirm={() => void form.handleSubmit(onErase, onCancel)()}
      onCancel={onCancel}
    >
      <p>{rich(t('erase.what'), { email: <strong className="break-all">{email}</strong> })}</p>
      <p>{t('erase.kept')}</p>
      <p className="font-medium">{t('erase.final')}</p>
      <label className="block pt-1">
        <span className="font-medium">{t('erase.confirmLabel')}</span>
        <input
          type="email"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          className={INPUT}
          {...form.register('confirmation')}
        />
      </label>
      {error && <p className="text-sm font-medium text-red-800">{error}</p>}
    </ConfirmDialog>
  );
}
