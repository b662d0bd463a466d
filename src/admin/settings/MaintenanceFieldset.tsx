// Maintenance mode on the Général tab (issue 12): turned on only after the kit's dialog shows what
// visitors will see (the maintenance page's own words, both languages); turning it off needs no
// warning. Nothing changes before the tab is saved.
import { useRef, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { SiteSettings } from '../../schemas/settings.ts';
import ConfirmDialog from '../ui/ConfirmDialog.tsx';
import type { Translate } from '../ui/kit.tsx';
import type { GeneralDraft } from './drafts.ts';
import { Fieldset } from './fields.tsx';

interface Props {
  t: Translate;
  form: UseFormReturn<GeneralDraft, unknown, unknown>;
  saved: SiteSettings;
}

export default function MaintenanceFieldset({ t, form, saved }: Props) {
  const [confirming, setConfirming] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  const on = useWatch({ control: form.control, name: 'site_maintenance' });
  const set = (value: boolean) => form.setValue('site_maintenance', value, { shouldDirty: true });
  return (
    <Fieldset legend={t('group.maintenance')}>
      {saved.site_maintenance && (
        <p className="rounded border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950">
          {t('maintenance.activeNote')}
        </p>
      )}
      <div>
        <label className="flex min-h-11 items-center gap-3 font-medium">
          <input
            ref={box}
            type="checkbox"
            name="site_maintenance"
            checked={on}
            aria-describedby="settings-maintenance-hint"
            onChange={(e) => (e.target.checked ? setConfirming(true) : set(false))}
            className="size-5 accent-ink"
          />
          {t('maintenance.label')}
        </label>
        <p id="settings-maintenance-hint" className="text-sm text-black/70">
          {t('maintenance.hint')}
        </p>
        {on !== saved.site_maintenance && (
          <p className="mt-2 text-sm font-medium text-amber-900">
            {on ? t('maintenance.pendingOn') : t('maintenance.pendingOff')}
          </p>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          id="maintenance-confirm"
          title={t('maintenance.dialogTitle')}
          confirmLabel={t('maintenance.confirm')}
          cancelLabel={t('cancel')}
          tone="danger"
          returnFocus={box}
          onConfirm={() => {
            setConfirming(false);
            set(true);
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
    </Fieldset>
  );
}
