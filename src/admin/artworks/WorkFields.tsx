// The work form's own fields (back office §5): both languages' title, technique and description;
// category, collection, year, dimensions and price (typed in French, '9 400,00'); for a print its
// stock, edition and the original it reproduces.
import { CATEGORIES, type AdminArtwork } from '../../schemas/artworks.ts';
import type { Translate } from '../ui/kit.tsx';
import FormField, { FIELD, useFieldError, type WorkForm } from './FormField.tsx';

const LANGS = [
  ['fr', 'Fr'],
  ['en', 'En'],
] as const;

export function TextsFields({ form, t }: { form: WorkForm; t: Translate }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {LANGS.map(([lang, suffix]) => (
        <FormField
          key={lang}
          form={form}
          name={`title.${lang}`}
          lang={lang}
          required
          maxLength={200}
          label={t(`form.title${suffix}`)}
          t={t}
        />
      ))}
      {LANGS.map(([lang, suffix]) => (
        <FormField
          key={lang}
          form={form}
          name={`technique.${lang}`}
          lang={lang}
          maxLength={200}
          label={t(`form.technique${suffix}`)}
          t={t}
        />
      ))}
      {LANGS.map(([lang, suffix]) => (
        <FormField
          key={lang}
          form={form}
          name={`description.${lang}`}
          lang={lang}
          textarea
          maxLength={5000}
          label={t(`form.description${suffix}`)}
          t={t}
        />
      ))}
    </div>
  );
}

export function FactsFields({ form, t, print }: { form: WorkForm; t: Translate; print: boolean }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <label className="block">
        <span className="font-medium">{t('form.category')}</span>
        <select {...form.register('category')} className={FIELD}>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`cat.${c}`)}
            </option>
          ))}
        </select>
      </label>
      <FormField form={form} name="collection" maxLength={100} label={t('form.collection')} t={t} />
      <FormField
        form={form}
        name="year"
        inputMode="numeric"
        maxLength={4}
        label={t('form.year')}
        t={t}
      />
      <FormField
        form={form}
        name="dimensions"
        required
        maxLength={100}
        label={t('form.dimensions')}
        t={t}
      />
      <FormField
        form={form}
        name="priceCents"
        required
        inputMode="decimal"
        maxLength={16}
        label={t('form.price')}
        t={t}
      />
      {print && (
        <FormField
          form={form}
          name="stock"
          required
          inputMode="numeric"
          maxLength={10}
          label={t('form.stock')}
          t={t}
        />
      )}
    </div>
  );
}

export function PrintFields({
  form,
  t,
  originals,
}: {
  form: WorkForm;
  t: Translate;
  originals: AdminArtwork[];
}) {
  const original = useFieldError(form, 'originalId', t);
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <FormField
        form={form}
        name="editionSize"
        inputMode="numeric"
        maxLength={10}
        label={t('form.editionSize')}
        t={t}
      />
      <FormField
        form={form}
        name="editionEa"
        inputMode="numeric"
        maxLength={4}
        label={t('form.editionEa')}
        t={t}
      />
      <FormField
        form={form}
        name="editionHc"
        inputMode="numeric"
        maxLength={4}
        label={t('form.editionHc')}
        t={t}
      />
      <label className="block md:col-span-2">
        <span className="font-medium">{t('form.original')}</span>
        <select {...form.register('originalId')} className={FIELD} {...original.aria}>
          <option value="">{t('form.noOriginal')}</option>
          {originals.map((o) => (
            <option key={o.id} value={o.id}>
              {o.title.fr}
            </option>
          ))}
        </select>
        {original.error}
      </label>
    </div>
  );
}
