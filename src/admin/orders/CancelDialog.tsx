// 'Annulée' asks before it acts (issue 13 point 2): refund the customer through Stripe? put the
// works back on sale? Two explicit answers, none chosen in advance — nothing happens silently. A
// payment already refunded leaves only the second question. The works of the order are listed,
// so the owner sees what would go back on sale.
import { useRef, useState, type FormEvent } from 'react';
import type { OrderRow } from '../../schemas/admin-orders.ts';
import { formatMoney } from '../../domain/money.ts';
import { errorFields, errorMessage } from '../query.tsx';
import type { Translate } from '../ui/kit.tsx';
import { useOrderDetail } from './detail-query.ts';
import { Choice, FormActions, Group, OrderForm, OrderModal } from './form-parts.tsx';

export interface CancelChoices {
  refund?: boolean;
  restock: boolean;
}

interface Props {
  order: OrderRow;
  t: Translate;
  busy: boolean;
  /** Rejects with the server's refusal, shown in the dialog. */
  onConfirm: (choices: CancelChoices) => Promise<unknown>;
  onClose: () => void;
}

type Answer = 'yes' | 'no' | '';

function Question(props: {
  name: string;
  legend: string;
  yes: string;
  no: string;
  value: Answer;
  error: string;
  onChange: (value: Answer) => void;
}) {
  return (
    <Group name={props.name} legend={props.legend} error={props.error || undefined}>
      {(['yes', 'no'] as const).map((answer) => (
        <Choice
          key={answer}
          name={props.name}
          value={answer}
          checked={props.value === answer}
          onChange={() => props.onChange(answer)}
        >
          {answer === 'yes' ? props.yes : props.no}
        </Choice>
      ))}
    </Group>
  );
}

export default function CancelDialog({ order, t, busy, onConfirm, onClose }: Props) {
  const paid = order.payment === 'paid';
  const [refund, setRefund] = useState<Answer>('');
  const [restock, setRestock] = useState<Answer>('');
  const [errors, setErrors] = useState<{ refund?: string; restock?: string }>({});
  const [refusal, setRefusal] = useState('');
  const lines = useOrderDetail(order.id).data?.lines ?? [];
  const form = useRef<HTMLFormElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      ...(paid && !refund ? { refund: t('error.choose') } : {}),
      ...(!restock ? { restock: t('error.choose') } : {}),
    };
    setErrors(missing);
    const first = Object.keys(missing)[0];
    if (first) {
      form.current?.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus();
      return;
    }
    setRefusal('');
    onConfirm({ ...(paid ? { refund: refund === 'yes' } : {}), restock: restock === 'yes' }).catch(
      (error: unknown) => {
        const fields = errorFields(error);
        if (Object.keys(fields).length > 0) setErrors(fields);
        else setRefusal(t('updateError', { message: errorMessage(error) }));
      },
    );
  }

  return (
    <OrderModal kind="cancel" number={order.number} t={t} onClose={onClose}>
      <OrderForm formRef={form} refusal={refusal} onSubmit={submit}>
        <p className="text-[0.95rem] leading-relaxed">
          {paid ? t('cancel.text') : t('cancel.textRefunded')}
        </p>
        {paid && (
          <Question
            name="refund"
            legend={t('cancel.refund')}
            yes={t('cancel.refundYes', {
              amount: formatMoney(order.totalCents, order.currency),
              customer: order.customerName,
            })}
            no={t('cancel.refundNo')}
            value={refund}
            error={errors.refund ?? ''}
            onChange={(value) => {
              setRefund(value);
              setErrors((e) => ({ ...e, refund: '' }));
            }}
          />
        )}
        <Question
          name="restock"
          legend={t('cancel.restock')}
          yes={t('cancel.restockYes')}
          no={t('cancel.restockNo')}
          value={restock}
          error={errors.restock ?? ''}
          onChange={(value) => {
            setRestock(value);
            setErrors((e) => ({ ...e, restock: '' }));
          }}
        />
        {lines.length > 0 && (
          <div className="text-sm">
            <p className="text-black/70">{t('cancel.works')}</p>
            <ul className="mt-1 list-disc pl-5">
              {lines.map((line, index) => (
                <li key={index}>
                  {line.title} (
                  {line.type === 'original' ? t('detail.original') : t('detail.print')}
                  {line.quantity > 1 ? ` × ${line.quantity}` : ''})
                </li>
              ))}
            </ul>
          </div>
        )}
        <FormActions t={t} busy={busy} confirm={t('cancel.confirm')} onBack={onClose} danger />
      </OrderForm>
    </OrderModal>
  );
}
