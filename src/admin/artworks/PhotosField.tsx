// The work form's photos (issue 25, part 3): up to 8, the first being the gallery's card image.
// Each is uploaded as the single image was (POST /api/admin/uploads: metadata removed, downscaled
// to 4 000 px, limits checked on the server), then ordered with up/down buttons (focus follows
// the photo, so a repeated press moves it on), removed, and captioned in both languages — the
// captions are the alt text; an empty one becomes the title and the photo's number on the site.
// A status line says what each action did, for screen readers.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { MAX_CAPTION, MAX_IMAGES, type AdminArtworkImage } from '../../schemas/artworks.ts';
import type { AdminError } from '../api.ts';

const FIELD = 'mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2';
const BUTTON =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded border border-black/20 bg-white px-3 text-sm aria-disabled:opacity-40';

interface Props {
  images: AdminArtworkImage[];
  onChange: (images: AdminArtworkImage[]) => void;
  onUploading: (busy: boolean) => void;
  t: (key: string, params?: Record<string, string>) => string;
  errors: Record<string, string>;
  /** Whether a photo is required (a new work). */
  required: boolean;
}

type Focus = { sha256: string; action: 'up' | 'down' } | 'add' | null;

export default function PhotosField({ images, onChange, onUploading, t, errors, required }: Props) {
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [focus, setFocus] = useState<Focus>(null);
  const list = useRef<HTMLOListElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const count = images.length;
  const full = count >= MAX_IMAGES;

  useEffect(() => {
    if (!focus) return;
    const target =
      focus === 'add'
        ? fileInput.current
        : list.current?.querySelector<HTMLElement>(
            `[data-photo="${focus.sha256}"] [data-photo-${focus.action}]`,
          );
    target?.focus();
    setFocus(null);
  }, [focus]);

  async function upload(files: File[]) {
    setUploadError(null);
    setBusy(true);
    onUploading(true);
    let next = images;
    try {
      for (const file of files.slice(0, MAX_IMAGES - images.length)) {
        const data = await uploadOne(file);
        if ('error' in data) {
          setUploadError(data.error);
          break;
        }
        if (next.some((image) => image.sha256 === data.sha256)) continue;
        next = [
          ...next,
          {
            sha256: data.sha256,
            width: data.width,
            height: data.height,
            caption: { fr: '', en: '' },
          },
        ];
        onChange(next);
        setStatus(t('form.photoAdded', { n: String(next.length) }));
      }
    } finally {
      setBusy(false);
      onUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  function move(index: number, by: -1 | 1) {
    const to = index + by;
    if (to < 0 || to >= count) return;
    const next = [...images];
    [next[index], next[to]] = [next[to]!, next[index]!];
    onChange(next);
    setStatus(t('form.photoMoved', { n: String(to + 1), count: String(count) }));
    setFocus({ sha256: images[index]!.sha256, action: by < 0 ? 'up' : 'down' });
  }

  function remove(index: number) {
    const next = images.filter((_, i) => i !== index);
    onChange(next);
    setStatus(t('form.photoRemoved', { count: String(next.length) }));
    const neighbour = next[Math.min(index, next.length - 1)];
    setFocus(neighbour ? { sha256: neighbour.sha256, action: 'down' } : 'add');
  }

  function caption(index: number, lang: 'fr' | 'en', value: string) {
    onChange(
      images.map((image, i) =>
        i === index ? { ...image, caption: { ...image.caption, [lang]: value } } : image,
      ),
    );
  }

  const listError = errors['images'] ?? errors['imageSha256'];
  const photoList: PhotoList = { count, t, errors, move, remove, caption };

  return (
    <fieldset className="rounded border border-black/10 p-4" aria-describedby="photos-hint">
      <legend className="px-1 font-medium">
        {t('form.photos')}
        {required && (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        )}
      </legend>
      <p id="photos-hint" className="text-sm text-black/70">
        {t('form.photosHint')}
      </p>
      {count > 0 && (
        <ol ref={list} className="mt-4 space-y-4">
          {images.map((image, index) => (
            <PhotoItem key={image.sha256} image={image} index={index} list={photoList} />
          ))}
        </ol>
      )}
      <div className="mt-4">
        {full ? (
          <p className="text-sm">{t('form.photosFull')}</p>
        ) : (
          <label className="block">
            <span className="font-medium">{t('form.addPhoto')}</span>
            <input
              ref={fileInput}
              data-field="images"
              type="file"
              multiple
              accept="image/jpeg,image/png,image/webp"
              onChange={(e) => {
                const files = [...(e.target.files ?? [])];
                if (files.length > 0) void upload(files);
              }}
              aria-describedby="photos-upload-hint"
              aria-invalid={listError ? true : undefined}
              className="mt-1 block min-h-11 w-full text-sm file:mr-3 file:min-h-11 file:cursor-pointer file:rounded file:border file:border-black/20 file:bg-white file:px-4 file:text-sm hover:file:bg-black/5"
            />
          </label>
        )}
        <p id="photos-upload-hint" className="mt-1 text-xs text-black/70">
          {t('form.imageHint')}
        </p>
        {busy && <p className="mt-2 text-sm">{t('form.uploading')}</p>}
        {uploadError && <p className="mt-2 text-sm text-red-800">{t(uploadError)}</p>}
        {listError && <p className="mt-2 text-sm text-red-800">{t(listError)}</p>}
      </div>
      <p role="status" className="sr-only">
        {status}
      </p>
    </fieldset>
  );
}

/** The error under a photo's field, tied to it by its id. */
function fieldError(errors: Record<string, string>, name: string, t: Props['t']): ReactNode {
  return errors[name] ? (
    <p id={`photos-${name}-error`} className="mt-1 text-sm text-red-800">
      {t(errors[name])}
    </p>
  ) : null;
}

/** One photo: its preview, number, move and remove buttons, and its captions in both languages. */
/** What the list's photos share: their count, the texts, the field errors, and each edit by place. */
interface PhotoList {
  count: number;
  t: Props['t'];
  errors: Record<string, string>;
  move: (index: number, by: -1 | 1) => void;
  remove: (index: number) => void;
  caption: (index: number, lang: 'fr' | 'en', value: string) => void;
}

function PhotoItem({
  image,
  index,
  list,
}: {
  image: AdminArtworkImage;
  index: number;
  list: PhotoList;
}) {
  const { count, t, errors } = list;
  const n = String(index + 1);
  return (
    <li
      data-photo={image.sha256}
      className="grid gap-4 rounded border border-black/10 bg-white/60 p-3 sm:grid-cols-[9rem_1fr]"
    >
      <div>
        <img
          src={`/media/${image.sha256}/400.webp`}
          alt=""
          width={144}
          height={Math.round((144 * image.height) / image.width)}
          className="h-auto w-36 rounded border border-black/10"
        />
        <p className="mt-1 text-sm font-medium">
          {t('form.photoN', { n })}
          {index === 0 && <span className="block text-black/70">{t('form.photoFirst')}</span>}
        </p>
        <div className="mt-2 flex flex-wrap gap-1">
          <button
            type="button"
            data-photo-up
            aria-label={t('form.moveUp', { n })}
            aria-disabled={index === 0 || undefined}
            onClick={() => list.move(index, -1)}
            className={BUTTON}
          >
            <span aria-hidden="true">↑</span>
          </button>
          <button
            type="button"
            data-photo-down
            aria-label={t('form.moveDown', { n })}
            aria-disabled={index === count - 1 || undefined}
            onClick={() => list.move(index, 1)}
            className={BUTTON}
          >
            <span aria-hidden="true">↓</span>
          </button>
          <button
            type="button"
            data-photo-remove
            aria-label={t('form.removePhoto', { n })}
            onClick={() => list.remove(index)}
            className={BUTTON}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        {fieldError(errors, `images.${index}.sha256`, t)}
      </div>
      <div className="grid content-start gap-3">
        {(['fr', 'en'] as const).map((lang) => {
          const name = `images.${index}.caption.${lang}`;
          return (
            <label key={lang} className="block">
              <span className="text-sm font-medium">
                {t(lang === 'fr' ? 'form.captionFr' : 'form.captionEn')}
                <span className="sr-only"> — {t('form.photoN', { n })}</span>
              </span>
              <input
                value={image.caption[lang]}
                maxLength={MAX_CAPTION}
                onChange={(e) => list.caption(index, lang, e.target.value)}
                aria-invalid={errors[name] ? true : undefined}
                aria-describedby={errors[name] ? `photos-${name}-error` : undefined}
                className={FIELD}
              />
              {fieldError(errors, name, t)}
            </label>
          );
        })}
      </div>
    </li>
  );
}

/** One file to the uploads endpoint: the stored image, or the message key of why it was refused. */
async function uploadOne(
  file: File,
): Promise<{ sha256: string; width: number; height: number } | { error: string }> {
  const response = await fetch('/api/admin/uploads', {
    method: 'POST',
    credentials: 'same-origin',
    body: file,
  });
  const data = (await response.json().catch(() => null)) as {
    sha256: string;
    width: number;
    height: number;
    error?: AdminError;
  } | null;
  if (!response.ok || !data)
    return {
      error:
        response.status === 413
          ? 'admin.upload.error.tooLarge'
          : (data?.error?.fields?.['image'] ?? 'admin.upload.error.unreadable'),
    };
  return { sha256: data.sha256, width: data.width, height: data.height };
}
