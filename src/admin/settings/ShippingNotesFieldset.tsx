// The E-commerce tab's shipping notes (issue 25, part 7): what an original's page tells a collector
// about crate, insurance and lead time when the work has no note of its own — one note per size
// class, in both languages, the classes bounded by the longest side in centimetres.
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { SIZE_CLASSES } from '../../domain/shipping-note.ts';
import type { Translate } from '../ui/kit.tsx';
import type { CommerceDraft } from './drafts.ts';
import { Fieldset, TextField, UnitField } from './fields.tsx';

interface Props {
  t: Translate;
  form: UseFormReturn<CommerceDraft, unknown, unknown>;
}

export default function ShippingNotesFieldset({ t, form }: Props) {
  const [small, medium] = useWatch({
    control: form.control,
    name: ['shipping_notes.small_max_cm', 'shipping_notes.medium_max_cm'],
  });
  const ranges = {
    small: t('shippingNotes.smallRange', { max: small }),
    medium: t('shippingNotes.mediumRange', { min: small, max: medium }),
    large: t('shippingNotes.largeRange', { min: medium }),
  };
  return (
    <Fieldset legend={t('shippingNotes.legend')}>
      <p className="max-w-prose text-sm text-black/75">{t('shippingNotes.intro')}</p>
      <div className="grid gap-5 md:grid-cols-2">
        {(['small', 'medium'] as const).map((size) => (
          <UnitField
            key={size}
            form={form}
            path={`shipping_notes.${size}_max_cm`}
            label={t(`shippingNotes.${size}Max`)}
            unit="cm"
            width="max-w-40"
            inputMode="numeric"
            whole={{ min: 1, max: 1000 }}
          />
        ))}
      </div>
      {SIZE_CLASSES.map((size) => (
        <div key={size} className="border-t border-black/10 pt-4">
          <p className="font-serif text-lg">
            {t(`shippingNotes.${size}`)}{' '}
            <span className="font-sans text-sm text-black/70">{ranges[size]}</span>
          </p>
          <div className="mt-2 grid gap-5 md:grid-cols-2">
            {(['fr', 'en'] as const).map((lang) => (
              <TextField
                key={lang}
                form={form}
                path={`shipping_notes.${size}.${lang}`}
                label={t(`shippingNotes.note.${lang}`)}
                options={{ required: true, rows: 3, maxLength: 600, lang }}
              />
            ))}
          </div>
        </div>
      ))}
    </Fieldset>
  );
}
