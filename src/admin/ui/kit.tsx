// The settings screen's small pieces (back office §2 "Site settings", issue 12): the texts helper,
// a labelled field with its hint and its own error (aria-invalid, aria-describedby), the banners,
// and the save bar each tab ends with.
import { Fragment, type ReactNode } from 'react';

export type Texts = Record<string, string>;
export type Translate = (key: string, params?: Record<string, string | number>) => string;

export function translator(texts: Texts): Translate {
  return (key, params = {}) =>
    Object.entries(params).reduce(
      (text, [name, value]) => text.replaceAll(`{${name}}`, String(value)),
      texts[key] ?? key,
    );
}

/** A text whose `{name}` placeholders are elements (an environment variable in <code>). */
export function rich(text: string, parts: Record<string, ReactNode>): ReactNode[] {
  return text.split(/(\{\w+\})/).map((piece, index) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    return <Fragment key={index}>{(name && parts[name]) ?? piece}</Fragment>;
  });
}

export const INPUT =
  'mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-700 disabled:bg-black/5';
export const BUTTON =
  'inline-flex min-h-11 items-center justify-center rounded border border-black/20 bg-white px-4 text-sm hover:bg-black/5 disabled:cursor-not-allowed disabled:opacity-60';
/**
 * A link inside a sentence: on a phone, a 44 px tall target (WCAG 2.5.5, our phone goal) that
 * still flows with the text; from a tablet on, plain inline text as before.
 */
export const INLINE_LINK = 'inline-flex min-h-11 items-center sm:inline sm:min-h-0';
export const PRIMARY =
  'inline-flex min-h-11 items-center justify-center rounded bg-ink px-5 text-sm font-medium text-white hover:bg-black disabled:cursor-not-allowed disabled:opacity-60';

/** The DOM id of a field, from its dotted path (`legal_identity.siret`). */
export const fieldId = (path: string) => `settings-${path.replace(/[^\w-]/g, '-')}`;

interface FieldProps {
  /** The setting's dotted path: the server names a bad field by it. */
  path: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  required?: boolean;
  className?: string | undefined;
  /** Renders the control with the props that tie it to its label, hint and error. */
  children: (control: {
    id: string;
    name: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
    required: boolean | undefined;
  }) => ReactNode;
}

/** A field's label, with the red star of a required one. */
export function FieldLabel({
  id,
  label,
  required,
}: {
  id: string;
  label: string;
  required?: boolean | undefined;
}) {
  return (
    <label htmlFor={id} className="font-medium">
      {label}
      {required && (
        <span aria-hidden="true" className="text-red-700">
          {' '}
          *
        </span>
      )}
    </label>
  );
}

/** A field's hint under its control, named by the control's `aria-describedby`. */
export function FieldHint({ id, hint }: { id: string; hint?: string | undefined }) {
  return hint ? (
    <p id={`${id}-hint`} className="mt-1 text-sm text-black/70">
      {hint}
    </p>
  ) : null;
}

/** A list's search box (its label read by screen readers only). */
export function SearchBox({
  t,
  value,
  onChange,
}: {
  t: Translate;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="block">
      <span className="sr-only">{t('searchLabel')}</span>
      <input
        type="search"
        value={value}
        placeholder={t('search')}
        maxLength={200}
        onChange={(e) => onChange(e.target.value)}
        className="block min-h-11 w-full rounded border border-field bg-white px-3"
      />
    </label>
  );
}

export function Field({ path, label, hint, error, required, className, children }: FieldProps) {
  const id = fieldId(path);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={className}>
      <FieldLabel id={id} label={label} required={required} />
      {children({
        id,
        name: path,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described || undefined,
        required: required || undefined,
      })}
      <FieldHint id={id} hint={hint} />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/** 'Actualiser' ('Actualisation…' while the screen's data is being read again). */
export function RefreshButton({
  t,
  busy,
  onRefresh,
  className = '',
}: {
  t: Translate;
  busy: boolean;
  onRefresh: () => void;
  className?: string;
}) {
  return (
    <button type="button" className={`${BUTTON} ${className}`} disabled={busy} onClick={onRefresh}>
      {busy ? t('refreshing') : t('refresh')}
    </button>
  );
}

/** What an empty list shows in its place: a title and, under it, what to do. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-black/10 bg-white p-8 text-center">
      <p className="font-serif text-xl">{title}</p>
      {children && <p className="mt-2 text-black/70">{children}</p>}
    </div>
  );
}

export interface Banner {
  tone: 'success' | 'error';
  text: string;
  detail?: string | undefined;
}

/**
 * The green or red banner (§4, §8). Both live regions stay in the page, empty until needed, so
 * screen readers announce the text the moment it appears.
 */
export function Banners({ banner }: { banner: Banner | null }) {
  const box = 'rounded border px-3 py-2 text-sm empty:hidden';
  return (
    <>
      <div
        role="status"
        aria-live="polite"
        className={`${box} border-green-800 bg-green-50 text-green-950`}
      >
        {banner?.tone === 'success' && <p className="font-medium">{banner.text}</p>}
      </div>
      <div role="alert" className={`${box} border-red-700 bg-red-50 text-red-950`}>
        {banner?.tone === 'error' && (
          <>
            <p className="font-medium">{banner.text}</p>
            {banner.detail && <p>{banner.detail}</p>}
          </>
        )}
      </div>
    </>
  );
}

interface SaveBarProps {
  t: Translate;
  label: string;
  saving: boolean;
  disabled: boolean;
  dirty: boolean;
  banner: Banner | null;
  onDiscard: () => void;
  /** Without it the button submits the tab's form. */
  onSave?: () => void;
}

/**
 * The end of each tab: the banner (or, before a save, the unsaved-changes hint), 'Annuler les
 * modifications' and the save button, on one line when they fit.
 */
export function SaveBar({
  t,
  label,
  saving,
  disabled,
  dirty,
  banner,
  onDiscard,
  onSave,
}: SaveBarProps) {
  return (
    // Kept in view (sticky) only while there is something to save or to read.
    <div
      className={`-mx-4 mt-8 border-t border-black/15 bg-paper px-4 py-3 md:-mx-8 md:px-8 ${
        dirty || banner
          ? // The page keeps what has the focus clear of the bar (WCAG 2.4.11).
            'sticky bottom-0 z-10 shadow-[0_-6px_16px_-12px_rgb(0_0_0/0.35)] [html:has(&)]:scroll-pb-44'
          : ''
      }`}
    >
      <div className="flex flex-wrap items-center justify-end gap-3">
        <div className="flex min-w-0 flex-[1_1_18rem] flex-wrap items-center gap-3">
          <div className="min-w-[12rem] flex-1">
            <Banners banner={banner} />
            {dirty && !banner && (
              <p className="flex items-center gap-2 text-sm text-black/80">
                <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-accent" />
                {t('unsaved')}
              </p>
            )}
          </div>
          {dirty && (
            // 'Annuler' beside the hint, short enough to share a phone's line with it.
            <button
              type="button"
              aria-label={t('discard')}
              className={BUTTON}
              onClick={onDiscard}
              disabled={saving}
            >
              {t('cancel')}
            </button>
          )}
        </div>
        <button
          type={onSave ? 'button' : 'submit'}
          onClick={onSave}
          disabled={disabled}
          aria-disabled={saving || undefined}
          className={PRIMARY}
        >
          {saving ? t('saving') : label}
        </button>
      </div>
    </div>
  );
}
