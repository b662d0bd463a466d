// The add / edit form (back office §2, §5; issues 11 and 27) in a modal dialog, on react-hook-form
// with the kernel's schemas (artworks/form-values.ts): both languages' title, technique and
// description, category, collection, year, dimensions, price in French ('9 400,00'; cents on the
// wire), stock and edition of a print and the original it reproduces, visibility, sold for an
// original, and its photos (artworks/PhotosField.tsx). A save carries the version the form was
// opened on; a conflict shows the current values; the server's field errors land on their fields.
import { useEffect, useRef, useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import type { AdminArtwork, AdminArtworkRow } from '../schemas/artworks.ts';
import type { AdminError } from './api.ts';
import CollectorFields from './artworks/CollectorFields.tsx';
import type { WorkForm } from './artworks/FormField.tsx';
import {
  createFormSchema,
  formValuesOf,
  patchFormSchema,
  type WorkFormValues,
} from './artworks/form-values.ts';
import PhotosField from './artworks/PhotosField.tsx';
import { FactsFields, PrintFields, TextsFields } from './artworks/WorkFields.tsx';
import { AdminCallError, adminFetch } from './query.tsx';
import { applyServerErrors, useAdminForm } from './ui/form.ts';
import { DialogHeader } from './ui/Modal.tsx';
import { BUTTON, PRIMARY, translator, type Texts } from './ui/kit.tsx';

interface Props {
  work: AdminArtwork | null;
  originals: AdminArtworkRow[];
  texts: Texts;
  onClose: () => void;
  onSaved: (work: AdminArtwork, added: boolean) => void;
  onFailure: (error: AdminError, added: boolean) => void;
}

/** The errors under `images` and `imageSha256`, flat ('images.1.caption.fr'), for PhotosField. */
function photoErrors(errors: FieldErrors<WorkFormValues>): Record<string, string> {
  const flat: Record<string, string> = {};
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    const message = (node as { message?: unknown }).message;
    if (typeof message === 'string') flat[path] = message;
    for (const [key, child] of Object.entries(node))
      if (key === 'root') walk(child, path);
      else if (key !== 'message' && key !== 'ref' && key !== 'type') walk(child, `${path}.${key}`);
  };
  walk(errors.images, 'images');
  walk((errors as Record<string, unknown>)['imageSha256'], 'imageSha256');
  return flat;
}

export default function ArtworkForm({
  work,
  originals,
  texts,
  onClose,
  onSaved,
  onFailure,
}: Props) {
  const t = translator(texts);
  const dialog = useRef<HTMLDialogElement>(null);
  const added = work === null;
  const form = useAdminForm(added ? createFormSchema : patchFormSchema, {
    defaultValues: formValuesOf(work, 'print'),
  });
  const [uploading, setUploading] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);
  const type = form.watch('type');
  const images = form.watch('images');
  const print = type === 'print';

  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    // On its first field, not on the '×' above it: the owner opened the form to type.
    element?.querySelector<HTMLElement>('form :is(input, select, textarea)')?.focus();
  }, []);

  const submit = form.handleSubmit(
    async (body) => {
      setBanner(null);
      try {
        const { artwork } = await adminFetch<{ artwork: AdminArtwork }>(
          added ? 'POST' : 'PATCH',
          added ? '/api/admin/artworks' : `/api/admin/artworks/${work.id}`,
          body,
        );
        dialog.current?.close();
        onSaved(artwork, added);
      } catch (error) {
        const failure = error instanceof AdminCallError ? error.error : null;
        if (failure?.code === 'version_conflict' && failure.details?.['artwork']) {
          // The current values replace the form's: the owner checks them and saves again.
          form.reset(formValuesOf(failure.details['artwork'] as AdminArtwork, type));
        }
        const rest = applyServerErrors(form as never, error);
        setBanner(rest === null ? t('form.fieldsError') : null);
        if (failure) onFailure(failure, added);
      }
    },
    () => setBanner(t('form.fieldsError')),
  );
  const saving = form.formState.isSubmitting;
  const typed = form as unknown as WorkForm;
  return (
    <dialog
      ref={dialog}
      aria-labelledby="artwork-form-title"
      onClose={onClose}
      className="m-auto max-h-[92vh] w-[min(48rem,calc(100vw-1rem))] overflow-y-auto rounded-lg bg-paper p-0 text-ink shadow-xl backdrop:bg-black/50"
    >
      <DialogHeader
        id="artwork-form-title"
        title={work ? t('form.editTitle', { title: work.title.fr }) : t('form.addTitle')}
        closeLabel={t('form.close')}
        onClose={() => dialog.current?.close()}
      />
      <form noValidate onSubmit={(e) => void submit(e)} className="space-y-5 p-5 md:p-7">
        {banner && (
          <p
            role="alert"
            className="rounded border border-red-700 bg-red-50 p-3 text-sm text-red-900"
          >
            {banner}
          </p>
        )}
        {added && (
          <label className="block">
            <span className="font-medium">{t('form.type')}</span>
            <select
              value={type}
              // The values typed so far stay (a print's defaults are a new print's start).
              onChange={(e) => form.setValue('type', e.target.value as 'original' | 'print')}
              className="mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2"
            >
              <option value="print">{t('form.typePrint')}</option>
              <option value="original">{t('form.typeOriginal')}</option>
            </select>
          </label>
        )}
        <TextsFields form={typed} t={t} />
        <FactsFields form={typed} t={t} print={print} />
        {print && <PrintFields form={typed} t={t} originals={originals} />}
        {!print && <CollectorFields form={typed} t={t} />}
        <div className="flex flex-wrap gap-6">
          <label className="flex min-h-11 items-center gap-2">
            <input
              type="checkbox"
              {...form.register('isAvailable')}
              className="size-5 accent-ink"
            />
            {t('form.visible')}
          </label>
          {!print && (
            <label className="flex min-h-11 items-center gap-2">
              <input type="checkbox" {...form.register('isSold')} className="size-5 accent-ink" />
              {t('form.isSold')}
            </label>
          )}
        </div>
        <PhotosField
          images={images}
          onChange={(list) => form.setValue('images', list, { shouldDirty: true })}
          onUploading={setUploading}
          t={t}
          errors={photoErrors(form.formState.errors)}
          required={added}
        />
        <div className="flex flex-wrap justify-end gap-3 border-t border-black/10 pt-5">
          <button type="button" onClick={() => dialog.current?.close()} className={BUTTON}>
            {t('form.cancel')}
          </button>
          <button
            type="submit"
            disabled={uploading}
            aria-disabled={saving || undefined}
            className={PRIMARY}
          >
            {saving
              ? t(added ? 'form.adding' : 'form.saving')
              : t(added ? 'form.submitAdd' : 'form.submitEdit')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
