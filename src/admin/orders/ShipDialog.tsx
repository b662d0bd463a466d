// 'Marquer comme expédiée' (issues 13, 26, 27): the carrier from the list whose tracking pages the
// buyer's mail links (src/domain/carriers.ts) — or none, for a parcel handed over — and its tracking
// number, required with a carrier so the mail has a link to follow. A react-hook-form form on the
// kernel's schema (shipFormSchema); it says who gets the mail and in which language.
import { useState } from 'react';
import { CARRIERS } from '../../domain/carriers.ts';
import { TRACKING_MAX, type OrderRow } from '../../schemas/admin-orders.ts';
import { shipFormSchema, type ShipForm } from '../../schemas/admin-orders-input.ts';
import { applyServerErrors, useAdminForm } from '../ui/form.ts';
import { Field, INPUT, type Translate } from '../ui/kit.tsx';
import { FormActions, OrderForm, OrderModal } from './form-parts.tsx';

export interface Shipment {
  carrier?: string;
  trackingNumber?: string;
}

interface Props {
  order: OrderRow;
  t: Translate;
  busy: boolean;
  /** Rejects with the server's refusal: its field errors go on the fields, the rest above them. */
  onConfirm: (shipment: Shipment) => Promise<unknown>;
  onClose: () => void;
}

/** A kernel message key ('admin.orders.error.…') in this screen's words. */
export const screenText = (t: Translate, message: string | undefined) =>
  message ? t(message.replace(/^admin\.orders\./, '')) : undefined;

export default function ShipDialog({ order, t, busy, onConfirm, onClose }: Props) {
  const form = useAdminForm(shipFormSchema, {
    defaultValues: { carrier: '', trackingNumber: '' },
  });
  const [refusal, setRefusal] = useState('');
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values: ShipForm) => {
    setRefusal('');
    try {
      await onConfirm({
        ...(values.carrier ? { carrier: values.carrier } : {}),
        ...(values.trackingNumber ? { trackingNumber: values.trackingNumber } : {}),
      });
    } catch (error) {
      const text = applyServerErrors(form, error);
      if (text) setRefusal(t('updateError', { message: text }));
    }
  });
  return (
    <OrderModal kind="ship" number={order.number} t={t} onClose={onClose}>
      <OrderForm refusal={refusal} onSubmit={(e) => void submit(e)}>
        <p className="text-[0.95rem] leading-relaxed">
          {t('ship.textForm', {
            customer: order.customerName,
            language: t(`lang.${order.locale}`),
          })}
        </p>
        <Field
          path="ship.carrier"
          label={t('ship.carrierSelect')}
          hint={t('ship.carrierSelectHint')}
          error={screenText(t, errors.carrier?.message)}
        >
          {(control) => (
            <select {...control} {...form.register('carrier')} className={INPUT}>
              <option value="">{t('ship.carrierNone')}</option>
              {CARRIERS.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          path="ship.trackingNumber"
          label={t('ship.trackingLabel')}
          error={screenText(t, errors.trackingNumber?.message)}
        >
          {(control) => (
            <input
              {...control}
              {...form.register('trackingNumber')}
              maxLength={TRACKING_MAX}
              autoComplete="off"
              spellCheck={false}
              className={`${INPUT} font-mono`}
            />
          )}
        </Field>
        <FormActions t={t} busy={busy} confirm={t('ship.confirm')} onBack={onClose} />
      </OrderForm>
    </OrderModal>
  );
}
