// The add / edit form (back office §2, §5; issue 11) in a modal dialog: both languages' title,
// technique and description, category, collection, year, dimensions, price in euros (cents on the
// wire), stock and edition size for a print and the original it reproduces, visibility, sold for
// an original, and its photos (artworks/PhotosField.tsx: up to 8, ordered, captioned). A save
// carries the version the form was opened on; a conflict shows the current values.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  artworkCreateSchema,
  artworkPatchSchema,
  CATEGORIES,
  type AdminArtwork,
} from '../schemas/artworks.ts';
import { fieldErrors } from '../schemas/fields.ts';
import { adminCall, type AdminError } from './api.ts';
import PhotosField from './artworks/PhotosField.tsx';
import CollectorFields, { readCollectorFields } from './artworks/CollectorFields.tsx';

interface Props {
  work: AdminArtwork | null;
  originals: AdminArtwork[];
  texts: Record<string, string>;
  onClose: () => void;
  onSaved: (work: AdminArtwork, added: boolean) => void;
  onFailure: (error: AdminError, added: boolean) => void;
}

/** back office §5: what a new print starts with (its technique in French, issue 25). */
const NEW_PRINT = {
  technique: 'Tirage giclée sur toile',
  dimensions: '100 x 80 cm',
  priceCents: 42_000,
  stock: 10,
};

const FIELD = 'mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2';

export default function ArtworkForm({
  work,
  originals,
  texts,
  onClose,
  onSaved,
  onFailure,
}: Props) {
  const t = (key: string, params: Record<string, string> = {}) =>
    Object.entries(params).reduce(
      (text, [name, value]) => text.replaceAll(`{${name}}`, value),
      texts[key] ?? key,
    );
  const dialog = useRef<HTMLDialogElement>(null);
  const [current, setCurrent] = useState<AdminArtwork | null>(work);
  const [type, setType] = useState<'original' | 'print'>(work?.type ?? 'print');
  const [images, setImages] = useState(work?.images ?? []);
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formKey, setFormKey] = useState(0);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const added = work === null;
  const value = current;
  const id = (name: string) => `artwork-${name}`;
  const error = (name: string) =>
    errors[name] ? (
      <p id={`${id(name)}-error`} className="mt-1 text-sm text-red-800">
        {t(errors[name])}
      </p>
    ) : null;
  const invalid = (name: string) => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id(name)}-error` : undefined,
  });

  function read(form: HTMLFormElement) {
    const data = new FormData(form);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value.trim() : '';
    };
    const number = (name: string) =>
      text(name) === '' ? NaN : Number(text(name).replace(',', '.'));
    const print = type === 'print';
    return {
      title: { fr: text('titleFr'), en: text('titleEn') },
      technique: { fr: text('techniqueFr'), en: text('techniqueEn') },
      description: { fr: text('descriptionFr'), en: text('descriptionEn') },
      category: text('category'),
      collection: text('collection'),
      year: text('year') === '' ? null : number('year'),
      dimensions: text('dimensions'),
      priceCents: Math.round(number('price') * 100),
      stock: print ? number('stock') : 1,
      editionSize: print && text('editionSize') !== '' ? number('editionSize') : null,
      // issue 26: artist's proofs and hors-commerce copies, counted apart (empty: none).
      ...(print
        ? {
            editionEa: text('editionEa') === '' ? 0 : number('editionEa'),
            editionHc: text('editionHc') === '' ? 0 : number('editionHc'),
          }
        : {}),
      isAvailable: data.get('isAvailable') === 'on',
      isSold: !print && data.get('isSold') === 'on',
      originalId: print && text('originalId') !== '' ? Number(text('originalId')) : null,
      ...(print ? {} : readCollectorFields(data)),
      images: images.map(({ sha256, caption }) => ({ sha256, caption })),
    };
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || uploading) return;
    const form = event.currentTarget;
    const values = read(form);
    const body = added ? { type, ...values } : { version: value!.version, ...values };
    const parsed = (added ? artworkCreateSchema : artworkPatchSchema).safeParse(body);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors(found);
      const first = Object.keys(found)[0]?.split('.')[0];
      form.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    setSaving(true);
    const result = added
      ? await adminCall<{ artwork: AdminArtwork }>('POST', '/api/admin/artworks', parsed.data)
      : await adminCall<{ artwork: AdminArtwork }>(
          'PATCH',
          `/api/admin/artworks/${value!.id}`,
          parsed.data,
        );
    setSaving(false);
    if (result.ok) {
      dialog.current?.close();
      onSaved(result.data.artwork, added);
      return;
    }
    if (result.error.code === 'version_conflict' && result.error.details?.['artwork']) {
      // The current values replace the form's: the owner checks them and saves again.
      const fresh = result.error.details['artwork'] as AdminArtwork;
      setCurrent(fresh);
      setImages(fresh.images);
      setFormKey((k) => k + 1);
    }
    if (result.error.fields) setErrors(result.error.fields);
    onFailure(result.error, added);
  }

  const heading = work ? t('form.editTitle', { title: work.title.fr }) : t('form.addTitle');
  const defaults = added && type === 'print' ? NEW_PRINT : null;
  const print = type === 'print';
  return (
    <dialog
      ref={dialog}
      aria-labelledby="artwork-form-title"
      onClose={onClose}
      className="m-auto max-h-[92vh] w-[min(48rem,calc(100vw-1rem))] overflow-y-auto rounded-lg bg-paper p-0 text-ink shadow-xl backdrop:bg-black/50"
    >
      <form
        key={formKey}
        noValidate
        onSubmit={(e) => void submit(e)}
        className="space-y-5 p-5 md:p-7"
      >
        <h2 id="artwork-form-title" className="font-serif text-2xl">
          {heading}
        </h2>
        {Object.keys(errors).length > 0 && (
          <p
            role="alert"
            className="rounded border border-red-700 bg-red-50 p-3 text-sm text-red-900"
          >
            {t('form.fieldsError')}
          </p>
        )}
        {added && (
          <label className="block">
            <span className="font-medium">{t('form.type')}</span>
            <select
              data-field="type"
              value={type}
              onChange={(e) => setType(e.target.value as 'original' | 'print')}
              className={FIELD}
            >
              <option value="print">{t('form.typePrint')}</option>
              <option value="original">{t('form.typeOriginal')}</option>
            </select>
          </label>
        )}
        <fieldset className="grid gap-4 md:grid-cols-2">
          {(['Fr', 'En'] as const).map((lang) => (
            <label key={lang} className="block" htmlFor={id(`title${lang}`)}>
              <span className="font-medium">
                {t(`form.title${lang}`)}
                <span aria-hidden="true" className="text-red-700">
                  {' '}
                  *
                </span>
              </span>
              <input
                id={id(`title${lang}`)}
                name={`title${lang}`}
                data-field="title"
                required
                maxLength={200}
                defaultValue={value?.title[lang === 'Fr' ? 'fr' : 'en'] ?? ''}
                className={FIELD}
                {...invalid(`title.${lang.toLowerCase()}`)}
              />
              {error(`title.${lang.toLowerCase()}`)}
            </label>
          ))}
          {(['Fr', 'En'] as const).map((lang) => (
            <label key={lang} className="block">
              <span className="font-medium">{t(`form.technique${lang}`)}</span>
              <input
                name={`technique${lang}`}
                maxLength={200}
                defaultValue={
                  value?.technique[lang === 'Fr' ? 'fr' : 'en'] ??
                  (defaults && lang === 'Fr' ? defaults.technique : '')
                }
                className={FIELD}
              />
            </label>
          ))}
          {(['Fr', 'En'] as const).map((lang) => (
            <label key={lang} className="block md:col-span-1">
              <span className="font-medium">{t(`form.description${lang}`)}</span>
              <textarea
                name={`description${lang}`}
                rows={4}
                maxLength={5000}
                defaultValue={value?.description?.[lang === 'Fr' ? 'fr' : 'en'] ?? ''}
                className={FIELD}
              />
            </label>
          ))}
        </fieldset>
        <div className="grid gap-4 md:grid-cols-3">
          <label className="block">
            <span className="font-medium">{t('form.category')}</span>
            <select name="category" defaultValue={value?.category ?? 'peinture'} className={FIELD}>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {t(`cat.${c}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="block">
            <span className="font-medium">{t('form.collection')}</span>
            <input
              name="collection"
              maxLength={100}
              defaultValue={value?.collection ?? 'moderna'}
              className={FIELD}
            />
          </label>
          <label className="block">
            <span className="font-medium">{t('form.year')}</span>
            <input
              name="year"
              type="number"
              inputMode="numeric"
              min={1900}
              max={2200}
              defaultValue={value ? (value.year ?? '') : new Date().getFullYear()}
              className={FIELD}
            />
          </label>
          <label className="block" htmlFor={id('dimensions')}>
            <span className="font-medium">
              {t('form.dimensions')}
              <span aria-hidden="true" className="text-red-700">
                {' '}
                *
              </span>
            </span>
            <input
              id={id('dimensions')}
              name="dimensions"
              data-field="dimensions"
              required
              maxLength={100}
              defaultValue={value?.dimensions ?? defaults?.dimensions ?? ''}
              className={FIELD}
              {...invalid('dimensions')}
            />
            {error('dimensions')}
          </label>
          <label className="block" htmlFor={id('price')}>
            <span className="font-medium">
              {t('form.price')}
              <span aria-hidden="true" className="text-red-700">
                {' '}
                *
              </span>
            </span>
            <input
              id={id('price')}
              name="price"
              data-field="priceCents"
              type="number"
              inputMode="decimal"
              required
              min={0}
              step={0.01}
              defaultValue={
                value
                  ? (value.priceCents / 100).toFixed(2)
                  : defaults
                    ? defaults.priceCents / 100
                    : ''
              }
              className={FIELD}
              {...invalid('priceCents')}
            />
            {error('priceCents')}
          </label>
          {print && (
            <label className="block" htmlFor={id('stock')}>
              <span className="font-medium">
                {t('form.stock')}
                <span aria-hidden="true" className="text-red-700">
                  {' '}
                  *
                </span>
              </span>
              <input
                id={id('stock')}
                name="stock"
                data-field="stock"
                type="number"
                inputMode="numeric"
                required
                min={0}
                defaultValue={value?.stock ?? defaults?.stock ?? 0}
                className={FIELD}
                {...invalid('stock')}
              />
              {error('stock')}
            </label>
          )}
          {print && (
            <label className="block">
              <span className="font-medium">{t('form.editionSize')}</span>
              <input
                id={id('editionSize')}
                name="editionSize"
                data-field="editionSize"
                type="number"
                inputMode="numeric"
                min={1}
                defaultValue={value?.editionSize ?? ''}
                className={FIELD}
                {...invalid('editionSize')}
              />
              {error('editionSize')}
            </label>
          )}
          {print &&
            (['editionEa', 'editionHc'] as const).map((name) => (
              <label key={name} className="block">
                <span className="font-medium">{t(`form.${name}`)}</span>
                <input
                  id={id(name)}
                  name={name}
                  data-field={name}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={1000}
                  defaultValue={value?.[name] ?? 0}
                  className={FIELD}
                  {...invalid(name)}
                />
                {error(name)}
              </label>
            ))}
          {print && (
            <label className="block md:col-span-2">
              <span className="font-medium">{t('form.original')}</span>
              <select
                name="originalId"
                data-field="originalId"
                defaultValue={value?.originalId ?? ''}
                className={FIELD}
                {...invalid('originalId')}
              >
                <option value="">{t('form.noOriginal')}</option>
                {originals.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.title.fr}
                  </option>
                ))}
              </select>
              {error('originalId')}
            </label>
          )}
        </div>
        {!print && <CollectorFields value={value} t={t} error={error} invalid={invalid} />}
        <div className="flex flex-wrap gap-6">
          <label className="flex min-h-11 items-center gap-2">
            <input
              name="isAvailable"
              type="checkbox"
              defaultChecked={value?.isAvailable ?? true}
              className="size-5"
            />
            {t('form.visible')}
          </label>
          {!print && (
            <label className="flex min-h-11 items-center gap-2">
              <input
                name="isSold"
                type="checkbox"
                defaultChecked={value?.isSold ?? false}
                className="size-5"
              />
              {t('form.isSold')}
            </label>
          )}
        </div>
        <PhotosField
          images={images}
          onChange={setImages}
          onUploading={setUploading}
          t={t}
          errors={errors}
          required={added}
        />
        <div className="flex flex-wrap justify-end gap-3 border-t border-black/10 pt-5">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="min-h-11 rounded border border-black/20 bg-white px-4"
          >
            {t('form.cancel')}
          </button>
          <button
            type="submit"
            disabled={uploading}
            aria-disabled={saving || undefined}
            className="min-h-11 rounded bg-ink px-5 font-medium text-white disabled:opacity-60"
          >
            {saving
              ? added
                ? t('form.adding')
                : t('form.saving')
              : added
                ? t('form.submitAdd')
                : t('form.submitEdit')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
