// The promo code entry shared by the cart and the checkout (storefront §5: one code at a time,
// removable). Not a <form>: on the checkout page it sits inside the checkout form, so Enter in
// the field applies the code instead of submitting the order. The server checks the code. The
// field is uncontrolled: a code typed before hydration is kept.
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Translate } from './translate.ts';
import type { CartData } from './types.ts';

interface Props {
  t: Translate;
  promo: CartData['promo'];
  /** A line under the field advertising a code (checkout: the banner's code from the settings). */
  hint?: string | undefined;
  /** Applies the code; resolves to the error text to show, or null when applied. */
  onApply: (code: string) => Promise<string | null>;
  /** Removes the applied code; resolves to the error text to show, or null. */
  onRemove: () => Promise<string | null>;
  /** Another change is running: the buttons wait. */
  busy: boolean;
}

export function PromoBox({ t, promo, hint, onApply, onRemove, busy }: Props) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  const waiting = busy || pending;

  async function apply() {
    if (waiting) return;
    setPending(true);
    const failure = await onApply(field.current?.value ?? '');
    setPending(false);
    setError(failure ?? '');
    if (failure === null && field.current) field.current.value = '';
  }

  async function remove() {
    if (waiting) return;
    setPending(true);
    const failure = await onRemove();
    setPending(false);
    setError(failure ?? '');
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void apply();
  };

  const describedBy = [hint ? `${id}-hint` : '', `${id}-message`].filter(Boolean).join(' ');
  return (
    <div className="space-y-2">
      <label htmlFor={`${id}-code`} className="block text-sm font-medium">
        {t('promo.label')}
      </label>
      <div className="flex gap-2">
        <input
          id={`${id}-code`}
          type="text"
          ref={field}
          onChange={() => setError('')}
          onKeyDown={onKeyDown}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          placeholder={t('promo.placeholder')}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="min-h-11 w-full min-w-0 rounded border border-field bg-white px-3 uppercase placeholder:normal-case aria-[invalid=true]:border-red-700"
        />
        <button
          type="button"
          onClick={() => void apply()}
          aria-disabled={waiting || undefined}
          className="min-h-11 shrink-0 rounded border border-ink px-4 text-sm font-medium aria-disabled:cursor-wait aria-disabled:opacity-60"
        >
          {pending ? t('promo.applying') : t('promo.apply')}
        </button>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-black/70">
          {hint}
        </p>
      )}
      <p id={`${id}-message`} aria-live="polite" className="text-sm text-red-700 empty:hidden">
        {error}
      </p>
      {promo && (
        <p className="flex flex-wrap items-center justify-between gap-2 rounded bg-green-50 px-3 py-1 text-sm text-green-900">
          <span>{t('promo.applied', { code: promo.code, percent: promo.percent })}</span>
          <button
            type="button"
            onClick={() => void remove()}
            aria-label={t('promo.removeLabel', { code: promo.code })}
            aria-disabled={waiting || undefined}
            className="min-h-11 px-2 underline aria-disabled:cursor-wait aria-disabled:opacity-60"
          >
            {t('promo.remove')}
          </button>
        </p>
      )}
    </div>
  );
}
