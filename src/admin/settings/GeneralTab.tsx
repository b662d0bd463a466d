// The Général tab (back office §2 "Site settings"; issue 12): the site's title and its description
// in both languages, the contact details, maintenance mode — turned on only after a dialog says
// what visitors will see — and the seller's legal identity for invoices and the legal pages.
import { useRef, useState, type ReactNode } from 'react';
import type { SiteSettings } from '../../schemas/settings.ts';
import ConfirmDialog from '../ui/ConfirmDialog.tsx';
import type { GeneralDraft } from './drafts.ts';
import { Field, INPUT, type Translate } from '../ui/kit.tsx';

interface Props {
  t: Translate;
  draft: GeneralDraft;
  saved: SiteSettings;
  errors: Record<string, string>;
  update: (change: Partial<GeneralDraft>) => void;
  onSubmit: () => void;
  saveBar: ReactNode;
}

type TextPath = Exclude<keyof GeneralDraft, 'site_maintenance'>;

const FIELDSET = 'space-y-5 rounded-lg border border-black/10 bg-white p-4 md:p-6';
// Floated, the legend sits inside the card like a heading instead of breaking its border.
const LEGEND = 'float-left mb-4 w-full font-serif text-xl [&+*]:clear-left';

export default function GeneralTab({ t, draft, saved, errors, update, onSubmit, saveBar }: Props) {
  const [confirming, setConfirming] = useState(false);
  const maintenanceBox = useRef<HTMLInputElement>(null);

  const text = (
    path: TextPath,
    label: string,
    options: {
      hint?: string;
      required?: boolean;
      type?: 'text' | 'email' | 'tel' | 'url';
      rows?: number;
      maxLength: number;
      autoComplete?: string;
      inputMode?: 'numeric' | 'decimal';
      placeholder?: string;
      className?: string;
    },
  ) => (
    <Field
      path={path}
      label={label}
      hint={options.hint}
      error={errors[path]}
      required={options.required ?? false}
      className={options.className}
    >
      {(control) =>
        options.rows ? (
          <textarea
            {...control}
            rows={options.rows}
            maxLength={options.maxLength}
            value={draft[path]}
            onChange={(e) => update({ [path]: e.target.value })}
            className={INPUT}
          />
        ) : (
          <input
            {...control}
            type={options.type ?? 'text'}
            maxLength={options.maxLength}
            autoComplete={options.autoComplete ?? 'off'}
            inputMode={options.inputMode}
            placeholder={options.placeholder}
            value={draft[path]}
            onChange={(e) => update({ [path]: e.target.value })}
            className={INPUT}
          />
        )
      }
    </Field>
  );

  const pending = draft.site_maintenance !== saved.site_maintenance;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      className="space-y-6"
    >
      <p className="max-w-prose text-black/75">{t('general.intro')}</p>

      <fieldset className={FIELDSET}>
        <legend className={LEGEND}>{t('group.site')}</legend>
        {text('site_title', t('field.siteTitle'), { required: true, maxLength: 120 })}
        <div className="grid gap-5 lg:grid-cols-2">
          {text('site_description.fr', t('field.descriptionFr'), {
            required: true,
            rows: 4,
            maxLength: 300,
            hint: t('field.descriptionHint'),
          })}
          {text('site_description.en', t('field.descriptionEn'), {
            required: true,
            rows: 4,
            maxLength: 300,
            hint: t('field.descriptionHint'),
          })}
        </div>
      </fieldset>

      <fieldset className={FIELDSET}>
        <legend className={LEGEND}>{t('group.contact')}</legend>
        <div className="grid gap-5 md:grid-cols-2">
          {text('contact_email', t('field.contactEmail'), {
            type: 'email',
            required: true,
            maxLength: 254,
            autoComplete: 'email',
          })}
          {text('contact_phone', t('field.contactPhone'), {
            type: 'tel',
            maxLength: 40,
            autoComplete: 'tel',
          })}
          {text('contact_address', t('field.contactAddress'), {
            maxLength: 300,
            className: 'md:col-span-2',
          })}
          {text('instagram_url', t('field.instagram'), {
            type: 'url',
            maxLength: 300,
            hint: t('field.instagramHint'),
            placeholder: 'https://www.instagram.com/…',
            className: 'md:col-span-2',
          })}
        </div>
      </fieldset>

      <fieldset className={FIELDSET}>
        <legend className={LEGEND}>{t('group.maintenance')}</legend>
        {saved.site_maintenance && (
          <p className="rounded border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950">
            {t('maintenance.activeNote')}
          </p>
        )}
        <div>
          <label className="flex min-h-11 items-center gap-3 font-medium">
            <input
              ref={maintenanceBox}
              type="checkbox"
              name="site_maintenance"
              checked={draft.site_maintenance}
              aria-describedby="settings-maintenance-hint"
              onChange={(e) => {
                // Turning it on asks first; turning it off needs no warning.
                if (e.target.checked) setConfirming(true);
                else update({ site_maintenance: false });
              }}
              className="size-5 accent-ink"
            />
            {t('maintenance.label')}
          </label>
          <p id="settings-maintenance-hint" className="text-sm text-black/70">
            {t('maintenance.hint')}
          </p>
          {pending && (
            <p className="mt-2 text-sm font-medium text-amber-900">
              {draft.site_maintenance ? t('maintenance.pendingOn') : t('maintenance.pendingOff')}
            </p>
          )}
        </div>
      </fieldset>

      <fieldset className={FIELDSET}>
        <legend className={LEGEND}>{t('legal.legend')}</legend>
        <p className="text-sm text-black/70">{t('legal.intro')}</p>
        <div className="grid gap-5 md:grid-cols-2">
          {text('legal_identity.name', t('legal.name'), {
            maxLength: 200,
            autoComplete: 'organization',
          })}
          {text('legal_identity.siret', t('legal.siret'), {
            maxLength: 20,
            inputMode: 'numeric',
            hint: t('legal.siretHint'),
          })}
          {text('legal_identity.address', t('legal.address'), {
            rows: 3,
            maxLength: 400,
            className: 'md:col-span-2',
          })}
          <Field
            path="legal_identity.vat_regime"
            label={t('legal.vatRegime')}
            hint={t('legal.vatRegimeHint')}
            error={errors['legal_identity.vat_regime']}
          >
            {(control) => (
              <select
                {...control}
                value={draft['legal_identity.vat_regime']}
                onChange={(e) => update({ 'legal_identity.vat_regime': e.target.value })}
                className={INPUT}
              >
                {(['', 'franchise', 'rate'] as const).map((regime) => (
                  <option key={regime} value={regime}>
                    {t(`legal.vatRegime.${regime || 'unset'}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {draft['legal_identity.vat_regime'] === 'rate' &&
            text('legal_identity.vat_rate_bp', t('legal.vatRate'), {
              maxLength: 8,
              inputMode: 'decimal',
              placeholder: '20',
              hint: t('legal.vatRateHint'),
            })}
          {text('legal_identity.vat_mention', t('legal.vat'), {
            maxLength: 200,
            placeholder: t('legal.vatPlaceholder'),
            hint: t('legal.vatHint'),
            className: 'md:col-span-2',
          })}
        </div>
      </fieldset>

      {saveBar}

      {confirming && (
        <ConfirmDialog
          id="maintenance-confirm"
          title={t('maintenance.dialogTitle')}
          confirmLabel={t('maintenance.confirm')}
          cancelLabel={t('cancel')}
          tone="danger"
          returnFocus={maintenanceBox}
          onConfirm={() => {
            setConfirming(false);
            update({ site_maintenance: true });
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('maintenance.dialogIntro')}</p>
          <figure className="space-y-3 rounded border border-black/15 bg-white p-4">
            <blockquote lang="fr">
              <p className="font-serif text-lg">{t('page.titleFr')}</p>
              <p className="text-sm text-black/75">{t('page.textFr')}</p>
            </blockquote>
            <blockquote lang="en" className="border-t border-black/10 pt-3">
              <p className="font-serif text-lg">{t('page.titleEn')}</p>
              <p className="text-sm text-black/75">{t('page.textEn')}</p>
            </blockquote>
            <figcaption className="text-xs text-black/70">
              {t('maintenance.dialogCaption', { email: saved.contact_email })}
            </figcaption>
          </figure>
          <ul className="list-disc space-y-1 pl-5">
            <li>{t('maintenance.dialogVisitors')}</li>
            <li>{t('maintenance.dialogAdmin')}</li>
            <li>{t('maintenance.dialogOpen')}</li>
          </ul>
          <p className="font-medium">{t('maintenance.dialogWhen')}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}
