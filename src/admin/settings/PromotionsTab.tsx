// The Promotions tab (back office §2, §4, §5; issue 12): add a code (trimmed, upper-cased, 10 % by
// default, the three §5 messages at once), activate / deactivate or delete each, choose the code the
// site's banner advertises. §4: all of it stays in this page until 'Enregistrer les codes promo'.
import { useId, useRef, useState, type ReactNode } from 'react';
import { PROMO_DEFAULT_DISCOUNT, type SiteSettings } from '../../schemas/settings.ts';
import { newPromoCode, type PromotionsDraft } from './drafts.ts';
import { BUTTON, Field, INPUT, type Translate } from '../ui/kit.tsx';

interface Props {
  t: Translate;
  draft: PromotionsDraft;
  saved: SiteSettings;
  errors: Record<string, string>;
  update: (change: Partial<PromotionsDraft>) => void;
  saveBar: ReactNode;
}

const SECTION = 'space-y-4 rounded-lg border border-black/10 bg-white p-4 md:p-6';
const HEADING = 'font-serif text-xl';

export default function PromotionsTab({ t, draft, saved, errors, update, saveBar }: Props) {
  const [code, setCode] = useState('');
  const [discount, setDiscount] = useState(String(PROMO_DEFAULT_DISCOUNT));
  const [addErrors, setAddErrors] = useState<{ code?: string; discount?: string }>({});
  const [added, setAdded] = useState('');
  const codeInput = useRef<HTMLInputElement>(null);
  const discountInput = useRef<HTMLInputElement>(null);
  const uid = useId();

  const codes = draft.promo_codes;
  const before = new Map(saved.promo_codes.map((promo) => [promo.code, promo]));
  const removed = saved.promo_codes.filter((promo) => !codes.some((c) => c.code === promo.code));

  function add() {
    const result = newPromoCode(codes, code, discount);
    if (!result.ok) {
      setAddErrors(result.errors);
      setAdded('');
      (result.errors.code ? codeInput : discountInput).current?.focus();
      return;
    }
    update({ promo_codes: [...codes, result.promo] });
    setAddErrors({});
    setAdded(result.promo.code);
    setCode('');
    setDiscount(String(PROMO_DEFAULT_DISCOUNT));
    codeInput.current?.focus();
  }

  const setActive = (index: number, active: boolean) =>
    update({ promo_codes: codes.map((c, i) => (i === index ? { ...c, active } : c)) });
  const remove = (index: number) => {
    const gone = codes[index]!;
    update({
      promo_codes: codes.filter((_, i) => i !== index),
      // The banner cannot advertise a code that no longer exists.
      ...(gone.code === draft.promo_banner_code ? { promo_banner_code: '' } : {}),
    });
    setAdded('');
  };

  const noneActive = !codes.some((promo) => promo.active);
  return (
    <div className="space-y-6">
      <p className="max-w-prose text-black/75">{t('promo.intro')}</p>

      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
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
            error={addErrors.code}
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
                  setAddErrors(({ code: _gone, ...rest }) => rest);
                }}
                className={`${INPUT} font-mono uppercase placeholder:normal-case`}
              />
            )}
          </Field>
          <Field
            path="new-promo-discount"
            label={t('promo.discount')}
            error={addErrors.discount}
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
                  setAddErrors(({ discount: _gone, ...rest }) => rest);
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
          {/* Said while the new code waits for the save, no longer once saved. */}
          {added && !before.has(added) && codes.some((c) => c.code === added)
            ? t('promo.added', { code: added })
            : ''}
        </p>
      </form>

      <section aria-labelledby={`${uid}-list`} className={SECTION}>
        <h2 id={`${uid}-list`} className={HEADING}>
          {t('promo.listTitle')}
        </h2>
        {noneActive && <p className="text-black/75">{t('promo.empty')}</p>}
        {codes.length > 0 && (
          <ul className="divide-y divide-black/10 rounded border border-black/10">
            {codes.map((promo, index) => {
              const id = `${uid}-code-${index}`;
              const was = before.get(promo.code);
              const change = !was
                ? t('promo.badgeNew')
                : was.active !== promo.active || was.discount !== promo.discount
                  ? t('promo.badgeChanged')
                  : '';
              const rowError =
                errors[`promo_codes.${index}.code`] ??
                errors[`promo_codes.${index}.discount`] ??
                errors[`promo_codes.${index}`];
              return (
                <li
                  key={promo.code}
                  data-promo-code={promo.code}
                  className="flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2"
                >
                  <span className="flex min-w-0 flex-[1_1_12rem] flex-wrap items-baseline gap-x-3">
                    <span id={id} className="font-mono font-semibold tracking-wide break-all">
                      {promo.code}
                    </span>
                    <span className="tabular-nums">
                      {t('promo.percent', { discount: promo.discount })}
                    </span>
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
                      onClick={() => setActive(index, !promo.active)}
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
                    onClick={() => remove(index)}
                    className={`${BUTTON} ml-auto text-red-800 sm:ml-0`}
                  >
                    {t('promo.delete')}
                  </button>
                  {rowError && (
                    <p className="basis-full text-sm font-medium text-red-800">{rowError}</p>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {removed.length > 0 && (
          <p className="text-sm text-black/75">
            {t('promo.pendingDelete', { codes: removed.map((promo) => promo.code).join(', ') })}
          </p>
        )}
      </section>

      <section aria-labelledby={`${uid}-banner`} className={SECTION}>
        <h2 id={`${uid}-banner`} className={HEADING}>
          {t('banner.title')}
        </h2>
        <Field
          path="promo_banner_code"
          label={t('banner.label')}
          hint={t('banner.hint')}
          error={errors['promo_banner_code']}
        >
          {(control) => (
            <select
              {...control}
              value={draft.promo_banner_code}
              onChange={(e) => update({ promo_banner_code: e.target.value })}
              className={`${INPUT} max-w-md`}
            >
              <option value="">{t('banner.none')}</option>
              {codes.map((promo) => (
                <option key={promo.code} value={promo.code}>
                  {t(promo.active ? 'banner.option' : 'banner.optionInactive', {
                    code: promo.code,
                    discount: promo.discount,
                  })}
                </option>
              ))}
              {/* A saved banner code missing from the list still shows what is stored. */}
              {draft.promo_banner_code !== '' &&
                !codes.some((promo) => promo.code === draft.promo_banner_code) && (
                  <option value={draft.promo_banner_code}>
                    {t('banner.optionMissing', { code: draft.promo_banner_code })}
                  </option>
                )}
            </select>
          )}
        </Field>
      </section>

      {saveBar}
    </div>
  );
}
