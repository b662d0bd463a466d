// The work form's "for the collector" part (issue 25, part 7), originals only: where the work is
// signed and whether it is framed — what a buyer of a 10 000 € canvas asks before paying — and a
// shipping note of its own, in both languages; left empty, the page shows the default note of its
// size (Paramètres › E-commerce). Read from the form's FormData like the rest of ArtworkForm.
import type { ReactNode } from 'react';
import type { AdminArtwork } from '../../schemas/artworks.ts';

const FIELD = 'mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2';
const LANGS = [
  ['fr', 'Fr'],
  ['en', 'En'],
] as const;

interface Props {
  value: AdminArtwork | null;
  t: (key: string) => string;
  error: (name: string) => ReactNode;
  invalid: (name: string) => {
    'aria-invalid': boolean | undefined;
    'aria-describedby': string | undefined;
  };
}

/** The fields' values as the API takes them. */
export function readCollectorFields(data: FormData) {
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  const framed = text('framed');
  return {
    signature: { fr: text('signatureFr'), en: text('signatureEn') },
    framed: framed === 'yes' ? true : framed === 'no' ? false : null,
    shippingNote: { fr: text('shippingNoteFr'), en: text('shippingNoteEn') },
  };
}

export default function CollectorFields({ value, t, error, invalid }: Props) {
  return (
    <fieldset className="grid gap-4 rounded border border-black/10 p-4 md:grid-cols-2">
      <legend className="px-1 font-serif text-lg">{t('form.collector.legend')}</legend>
      {LANGS.map(([lang, suffix]) => (
        <label key={lang} className="block">
          <span className="font-medium">{t(`form.collector.signature${suffix}`)}</span>
          <input
            name={`signature${suffix}`}
            data-field="signature"
            lang={lang}
            maxLength={200}
            defaultValue={value?.signature[lang] ?? ''}
            className={FIELD}
            {...invalid(`signature.${lang}`)}
          />
          {error(`signature.${lang}`)}
        </label>
      ))}
      <label className="block md:col-span-2">
        <span className="font-medium">{t('form.collector.framed')}</span>
        <select
          name="framed"
          data-field="framed"
          defaultValue={value?.framed === true ? 'yes' : value?.framed === false ? 'no' : ''}
          className={`${FIELD} md:max-w-sm`}
        >
          <option value="">{t('form.collector.framedUnknown')}</option>
          <option value="no">{t('form.collector.framedNo')}</option>
          <option value="yes">{t('form.collector.framedYes')}</option>
        </select>
      </label>
      {LANGS.map(([lang, suffix]) => (
        <label key={lang} className="block">
          <span className="font-medium">{t(`form.collector.shippingNote${suffix}`)}</span>
          <textarea
            name={`shippingNote${suffix}`}
            data-field="shippingNote"
            lang={lang}
            rows={3}
            maxLength={600}
            defaultValue={value?.shippingNote[lang] ?? ''}
            className={FIELD}
            {...invalid(`shippingNote.${lang}`)}
            aria-describedby={[
              invalid(`shippingNote.${lang}`)['aria-describedby'],
              'artwork-shipping-note-hint',
            ]
              .filter(Boolean)
              .join(' ')}
          />
          {error(`shippingNote.${lang}`)}
        </label>
      ))}
      <p id="artwork-shipping-note-hint" className="text-sm text-black/70 md:col-span-2">
        {t('form.collector.shippingNoteHint')}
      </p>
    </fieldset>
  );
}
