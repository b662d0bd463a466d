// One promo code of the Promotions tab (§2, §5): its code and discount, what changed since the save
// ('Nouveau', 'Modifié'), the on/off switch, 'Supprimer', and the message the server gave its row.
import type { UseFormReturn } from 'react-hook-form';
import type { PromoCode } from '../../schemas/settings.ts';
import { BUTTON, type Translate } from '../ui/kit.tsx';
import type { PromotionsDraft } from './drafts.ts';
import { useFieldError } from './fields.tsx';

/** What the tab's rows share: the texts, the tab's form, the codes as saved, and each edit by place. */
export interface PromoList {
  t: Translate;
  form: UseFormReturn<PromotionsDraft, unknown, unknown>;
  before: ReadonlyMap<string, PromoCode>;
  toggle: (index: number) => void;
  remove: (index: number) => void;
}

interface Props {
  index: number;
  promo: PromoCode;
  list: PromoList;
}

export default function PromoRow({ index, promo, list }: Props) {
  const { t, form } = list;
  /** The code as saved, if it was. */
  const was = list.before.get(promo.code);
  const change = !was
    ? t('promo.badgeNew')
    : was.active !== promo.active || was.discount !== promo.discount
      ? t('promo.badgeChanged')
      : '';
  const codeError = useFieldError(form, `promo_codes.${index}.code`);
  const discountError = useFieldError(form, `promo_codes.${index}.discount`);
  const error = codeError ?? discountError;
  return (
    <li
      data-promo-code={promo.code}
      className="flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2"
    >
      <span className="flex min-w-0 flex-[1_1_12rem] flex-wrap items-baseline gap-x-3">
        <span className="font-mono font-semibold tracking-wide break-all">{promo.code}</span>
        <span className="tabular-nums">{t('promo.percent', { discount: promo.discount })}</span>
        {change && (
          <span className="rounded-full border border-accent px-2 text-xs text-accent">
            {change}
          </span>
        )}
      </span>
      <span className="flex items-center gap-1">
        <button
          type="button"
          aria-pressed={promo.active}
          aria-label={t('promo.toggle', { code: promo.code })}
          onClick={() => list.toggle(index)}
          className="group inline-flex min-h-11 min-w-11 items-center justify-center rounded"
        >
          <span
            aria-hidden="true"
            className={`relative inline-block h-6 w-11 rounded-full transition-colors ${
              promo.active ? 'bg-green-800' : 'bg-field'
            }`}
          >
            <span
              className={`absolute top-0.5 size-5 rounded-full bg-white shadow transition-[left] ${
                promo.active ? 'left-[1.375rem]' : 'left-0.5'
              }`}
            />
          </span>
        </button>
        <span className="w-14 text-sm">
          {promo.active ? t('promo.active') : t('promo.inactive')}
        </span>
      </span>
      <button
        type="button"
        aria-label={t('promo.deleteLabel', { code: promo.code })}
        onClick={() => list.remove(index)}
        className={`${BUTTON} ml-auto text-red-800 sm:ml-0`}
      >
        {t('promo.delete')}
      </button>
      {error && <p className="basis-full text-sm font-medium text-red-800">{error}</p>}
    </li>
  );
}
