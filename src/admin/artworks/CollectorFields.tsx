// The work form's "for the collector" part (issue 25, part 7), originals only: where the work is
// signed and whether it is framed — what a buyer of a 10 000 € canvas asks before paying — and a
// shipping note of its own, in both languages; left empty, the page shows the default note of its
// size (Paramètres › E-commerce).
import type { Translate } from '../ui/kit.tsx';
import FormField, { FIELD, type WorkForm } from './FormField.tsx';

const LANGS = [
  ['fr', 'Fr'],
  ['en', 'En'],
] as const;

export default function CollectorFields({ form, t }: { form: WorkForm; t: Translate }) {
  return (
    <fieldset className="grid gap-4 rounded border border-black/10 p-4 md:grid-cols-2">
      <legend className="px-1 font-serif text-lg">{t('form.collector.legend')}</legend>
      {LANGS.map(([lang, suffix]) => (
        <FormField
          key={lang}
          form={form}
          name={`signature.${lang}`}
          lang={lang}
          maxLength={200}
          label={t(`form.collector.signature${suffix}`)}
          t={t}
        />
      ))}
      <label className="block md:col-span-2">
        <span className="font-medium">{t('form.collector.framed')}</span>
        <select {...form.register('framed')} className={`${FIELD} md:max-w-sm`}>
          <option value="">{t('form.collector.framedUnknown')}</option>
          <option value="no">{t('form.collector.framedNo')}</option>
          <option value="yes">{t('form.collector.framedYes')}</option>
        </select>
      </label>
      {LANGS.map(([lang, suffix]) => (
        <FormField
          key={lang}
          form={form}
          name={`shippingNote.${lang}`}
          lang={lang}
          textarea
          maxLength={600}
          label={t(`form.collector.shippingNote${suffix}`)}
          t={t}
        />
      ))}
      <p className="text-sm text-black/70 md:col-span-2">{t('form.collector.shippingNoteHint')}</p>
    </fieldset>
  );
}
