// 'Rembourser…' from the order's detail (issue 27 item 3): the whole order — refunded through
// Stripe and cancelled, as 'Annulée' with a refund — or some of its works, whose amount the server
// computes from the order's lines (the browser sends only which lines), with a credit note for
// them; and whether the works go back on sale. A react-hook-form form on the kernel's schema
// (refundFormSchema); a refund asks the owner to confirm it is them (docs/decisions/037).
import { useState } from 'react';
import type { OrderDetail, OrderRow } from '../../schemas/admin-orders.ts';
import { refundFormSchema, type RefundForm } from '../../schemas/admin-orders-input.ts';
import { formatMoney } from '../../domain/money.ts';
import { applyServerErrors, useAdminForm } from '../ui/form.ts';
import type { Banner, Translate } from '../ui/kit.tsx';
import { useLinesRefund } from './changes.ts';
import { useOrderDetail } from './detail-query.ts';
import { Choice, FormActions, Group, OrderForm, OrderModal } from './form-parts.tsx';
import { screenText } from './ShipDialog.tsx';

interface Props {
  order: OrderRow;
  t: Translate;
  /** The whole refund ('Annulée' with a refund): rejects with the server's refusal. */
  onWhole: (restock: boolean) => Promise<unknown>;
  onDone: (banner: Banner) => void;
  onClose: () => void;
}

function WorkChoices({
  detail,
  t,
  chosen,
  error,
  onToggle,
}: {
  detail: OrderDetail;
  t: Translate;
  chosen: number[];
  error: string | undefined;
  onToggle: (id: number) => void;
}) {
  const money = (cents: number) => formatMoney(cents, detail.currency);
  return (
    <Group name="items" legend={t('refund.works')} error={error}>
      {detail.lines.map((line) =>
        line.refunded ? (
          <p key={line.id} className="flex min-h-11 items-center text-sm text-black/60">
            {t('refund.refundedLine', { title: line.title })}
          </p>
        ) : (
          <label key={line.id} className="flex min-h-11 cursor-pointer items-center gap-3">
            <input
              type="checkbox"
              name="items"
              value={line.id}
              checked={chosen.includes(line.id)}
              onChange={() => onToggle(line.id)}
              className="size-5 shrink-0 accent-ink"
            />
            {t('refund.line', {
              title: line.title,
              kind: line.type === 'original' ? t('detail.original') : t('detail.print'),
              quantity: line.quantity,
              amount: money(line.lineCents),
            })}
          </label>
        ),
      )}
      <p className="pt-1 text-sm text-black/70">{t('refund.amountNote')}</p>
    </Group>
  );
}

export default function RefundDialog({ order, t, onWhole, onDone, onClose }: Props) {
  const detail = useOrderDetail(order.id).data;
  const refund = useLinesRefund(t, order, onDone);
  const [refusal, setRefusal] = useState('');
  const form = useAdminForm(refundFormSchema, {
    defaultValues: { items: [] } as Partial<RefundForm>,
  });
  const { errors, isSubmitting } = form.formState;
  const scope = form.watch('scope');
  const chosen = form.watch('items') ?? [];
  const open = detail?.lines.filter((l) => !l.refunded) ?? [];
  const left = detail ? detail.totalCents - detail.refundedCents : order.totalCents;

  const submit = form.handleSubmit(async (values) => {
    setRefusal('');
    const restock = values.restock === 'yes';
    try {
      if (values.scope === 'whole') await onWhole(restock);
      else await refund.mutateAsync({ items: values.items, restock });
    } catch (error) {
      const text = applyServerErrors(form, error);
      if (text) setRefusal(t('refund.error', { message: text }));
    }
  });
  const toggle = (id: number) =>
    form.setValue('items', chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id], {
      shouldValidate: form.formState.isSubmitted,
    });

  return (
    <OrderModal kind="refund" number={order.number} t={t} onClose={onClose}>
      <OrderForm refusal={refusal} onSubmit={(e) => void submit(e)}>
        <Group name="scope" legend={t('refund.scope')} error={screenText(t, errors.scope?.message)}>
          <Choice {...form.register('scope')} value="whole">
            {t('refund.whole', { amount: formatMoney(left, order.currency) })}
          </Choice>
          {open.length > 1 && (
            <Choice {...form.register('scope')} value="some">
              {t('refund.some')}
            </Choice>
          )}
        </Group>
        {scope === 'some' && detail && (
          <WorkChoices
            detail={detail}
            t={t}
            chosen={chosen}
            error={screenText(t, errors.items?.message)}
            onToggle={toggle}
          />
        )}
        <Group
          name="restock"
          legend={t('refund.restock')}
          error={screenText(t, errors.restock?.message)}
        >
          <Choice {...form.register('restock')} value="yes">
            {t('cancel.restockYes')}
          </Choice>
          <Choice {...form.register('restock')} value="no">
            {t('cancel.restockNo')}
          </Choice>
        </Group>
        <FormActions
          t={t}
          busy={isSubmitting}
          confirm={t('refund.confirm')}
          onBack={onClose}
          danger
        />
      </OrderForm>
    </OrderModal>
  );
}
