// Adding a promo code (back office §5): trimmed and upper-cased, 10 % by default, every message that
// applies at once ('Veuillez entrer un code promo', 'La remise doit être entre 1 et 100%', 'Ce code
// promo existe déjà'), checked by the kernel's schema (newPromoCode, loaded at the first add). The
// code joins the tab's list, saved with it.
import { useId, useRef, useState } from 'react';
import { PROMO_DEFAULT_DISCOUNT } from '../../domain/settings.ts';
import type { PromoCode } from '../../schemas/settings.ts';
import { BUTTON, Field, INPUT, type Translate } from '../ui/kit.tsx';
import { HEADING, SECTION } from './fields.tsx';

interface Props {
  t: Translate;
  codes: readonly PromoCode[];
  onAdd: (promo: PromoCode) => void;
  /** The code just added and not saved yet, or ''. */
  added: string;
}

export default function AddPromoForm({ t, codes, onAdd, added }: Props) {
  const [code, setCode] = useState('');
  const [discount, setDiscount] = useState(String(PROMO_DEFAULT_DISCOUNT));
  const [errors, setErrors] = useState<{ code?: string; discount?: string }>({});
  const codeInput = useRef<HTMLInputElement>(null);
  const discountInput = useRef<HTMLInputElement>(null);
  const uid = useId();

  async function add() {
    const { newPromoCode } = await import('./checks.ts');
    const result = newPromoCode(codes, code, discount);
    if (!result.ok) {
      setErrors(result.errors);
      (result.errors.code ? codeInput : discountInput).current?.focus();
      return;
    }
    onAdd(result.promo);
    setErrors({});
    setCode('');
    setDiscount(String(PROMO_DEFAULT_DISCOUNT));
    codeInput.current?.focus();
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
      className={SECTION}
      aria-labelledby={`${uid}-add`}
    >
      <h2 id={`${uid}-add`} className={HEADING}>
        {t('promo.addTitle')}
      </h2>
      <div className="flex flex-wrap items-start gap-4">
        <Field
          path="new-promo-code"
          label={t('promo.code')}
          hint={t('promo.codeHint')}
          error={errors.code}
          className="min-w-0 flex-[1_1_14rem]"
        >
          {(control) => (
            <input
              {...control}
              ref={codeInput}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={40}
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setErrors(({ code: _gone, ...rest }) => rest);
              }}
              className={`${INPUT} font-mono uppercase placeholder:normal-case`}
            />
          )}
        </Field>
        <Field
          path="new-promo-discount"
          label={t('promo.discount')}
          error={errors.discount}
          className="w-40"
        >
          {(control) => (
            <input
              {...control}
              ref={discountInput}
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              step={1}
              value={discount}
              onChange={(e) => {
                setDiscount(e.target.value);
                setErrors(({ discount: _gone, ...rest }) => rest);
              }}
              className={`${INPUT} tabular-nums`}
            />
          )}
        </Field>
        <button type="submit" className={`${BUTTON} mt-7 px-5 font-medium`}>
          {t('promo.add')}
        </button>
      </div>
      <p role="status" className="text-sm text-green-900 empty:hidden">
        {added ? t('promo.added', { code: added }) : ''}
      </p>
    </form>
  );
}
