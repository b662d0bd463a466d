// The work form's own fields (back office §5): both languages' title, technique and description;
// category, collection, year, dimensions and price (typed in French, '9 400,00'); for a print its
// stock, edition and the original it reproduces.
import { CATEGORIES, type AdminArtworkRow } from '../../schemas/artworks.ts';
import type { ComponentProps } from 'react';
import type { Translate } from '../ui/kit.tsx';
import FormField, { FIELD, useFieldError, type WorkForm } from './FormField.tsx';

/** A field of the form as data: its name, its label's text key and its control's attributes. */
type FieldSpec = Omit<ComponentProps<typeof FormField>, 'form' | 't'>;

function Fields({ form, t, fields }: { form: WorkForm; t: Translate; fields: FieldSpec[] }) {
  return fields.map((field) => (
    <FormField key={field.name} form={form} t={t} {...field} label={t(field.label)} />
  ));
}

/** Title, technique and description, French then English each. */
const TEXTS: FieldSpec[] = (
  [
    ['title', { required: true, maxLength: 200 }],
    ['technique', { maxLength: 200 }],
    ['description', { textarea: true, maxLength: 5000 }],
  ] as const
).flatMap(([field, control]) =>
  (['fr', 'en'] as const).map((lang) => ({
    name: `${field}.${lang}` as const,
    lang,
    label: `form.${field}${lang === 'fr' ? 'Fr' : 'En'}`,
    ...control,
  })),
);

const FACTS: FieldSpec[] = [
  { name: 'collection', maxLength: 100, label: 'form.collection' },
  { name: 'year', inputMode: 'numeric', maxLength: 4, label: 'form.year' },
  { name: 'dimensions', required: true, maxLength: 100, label: 'form.dimensions' },
  { name: 'priceCents', required: true, inputMode: 'decimal', maxLength: 16, label: 'form.price' },
];
const STOCK: FieldSpec = {
  name: 'stock',
  required: true,
  inputMode: 'numeric',
  maxLength: 10,
  label: 'form.stock',
};
const EDITION: FieldSpec[] = [
  { name: 'editionSize', inputMode: 'numeric', maxLength: 10, label: 'form.editionSize' },
  { name: 'editionEa', inputMode: 'numeric', maxLength: 4, label: 'form.editionEa' },
  { name: 'editionHc', inputMode: 'numeric', maxLength: 4, label: 'form.editionHc' },
];

export function TextsFields({ form, t }: { form: WorkForm; t: Translate }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Fields form={form} t={t} fields={TEXTS} />
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
      <Fields form={form} t={t} fields={print ? [...FACTS, STOCK] : FACTS} />
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
  originals: AdminArtworkRow[];
}) {
  const original = useFieldError(form, 'originalId', t);
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <Fields form={form} t={t} fields={EDITION} />
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
