// The E-commerce tab's shipping notes (issue 25, part 7): what an original's page tells a collector
// about crate, insurance and lead time when the work has no note of its own — one note per size
// class, in both languages, the classes bounded by the longest side in centimetres.
import { SIZE_CLASSES } from '../../domain/shipping-note.ts';
import type { CommerceDraft } from './drafts.ts';
import { Field, INPUT, type Translate } from '../ui/kit.tsx';

interface Props {
  t: Translate;
  draft: CommerceDraft;
  errors: Record<string, string>;
  update: (change: Partial<CommerceDraft>) => void;
  fieldset: string;
  legend: string;
}

export default function ShippingNotesFieldset({
  t,
  draft,
  errors,
  update,
  fieldset,
  legend,
}: Props) {
  const limit = (path: 'shipping_notes.small_max_cm' | 'shipping_notes.medium_max_cm') => (
    <Field
      path={path}
      label={t(
        `shippingNotes.${path === 'shipping_notes.small_max_cm' ? 'smallMax' : 'mediumMax'}`,
      )}
      error={errors[path]}
      required
    >
      {(control) => (
        <div className="relative mt-1 max-w-40">
          <input
            {...control}
            type="number"
            inputMode="numeric"
            min={1}
            max={1000}
            step={1}
            value={draft[path]}
            onChange={(e) => update({ [path]: e.target.value })}
            className={`${INPUT} mt-0 pr-10 text-right tabular-nums`}
          />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-black/70"
          >
            cm
          </span>
        </div>
      )}
    </Field>
  );
  const ranges = {
    small: t('shippingNotes.smallRange', { max: draft['shipping_notes.small_max_cm'] }),
    medium: t('shippingNotes.mediumRange', {
      min: draft['shipping_notes.small_max_cm'],
      max: draft['shipping_notes.medium_max_cm'],
    }),
    large: t('shippingNotes.largeRange', { min: draft['shipping_notes.medium_max_cm'] }),
  };
  return (
    <fieldset className={fieldset}>
      <legend className={legend}>{t('shippingNotes.legend')}</legend>
      <p className="max-w-prose text-sm text-black/75">{t('shippingNotes.intro')}</p>
      <div className="grid gap-5 md:grid-cols-2">
        {limit('shipping_notes.small_max_cm')}
        {limit('shipping_notes.medium_max_cm')}
      </div>
      {SIZE_CLASSES.map((size) => (
        <div key={size} className="border-t border-black/10 pt-4">
          <p className="font-serif text-lg">
            {t(`shippingNotes.${size}`)}{' '}
            <span className="font-sans text-sm text-black/70">{ranges[size]}</span>
          </p>
          <div className="mt-2 grid gap-5 md:grid-cols-2">
            {(['fr', 'en'] as const).map((lang) => {
              const path = `shipping_notes.${size}.${lang}` as const;
              return (
                <Field
                  key={lang}
                  path={path}
                  label={t(`shippingNotes.note.${lang}`)}
                  error={errors[path]}
                  required
                >
                  {(control) => (
                    <textarea
                      {...control}
                      lang={lang}
                      rows={3}
                      maxLength={600}
                      value={draft[path]}
                      onChange={(e) => update({ [path]: e.target.value })}
                      className={INPUT}
                    />
                  )}
                </Field>
              );
            })}
          </div>
        </div>
      ))}
    </fieldset>
  );
}
