// The Général tab (back office §2 "Site settings"; issues 12, 27): the site's title and description
// in both languages, the contact details, maintenance mode (src/admin/settings/MaintenanceFieldset.tsx)
// and the seller's legal identity (LegalFieldset.tsx), on the tab's react-hook-form.
import type { ReactNode } from 'react';
import type { SiteSettings } from '../../schemas/settings.ts';
import type { Translate } from '../ui/kit.tsx';
import { Fieldset, TextField } from './fields.tsx';
import LegalFieldset from './LegalFieldset.tsx';
import MaintenanceFieldset from './MaintenanceFieldset.tsx';
import type { SettingsTabState } from './useSettingsTab.ts';

interface Props {
  t: Translate;
  state: SettingsTabState<'general'>;
  saved: SiteSettings;
  saveBar: ReactNode;
}

export default function GeneralTab({ t, state, saved, saveBar }: Props) {
  const { form } = state;
  return (
    <form noValidate onSubmit={(event) => void state.submit(event)} className="space-y-6">
      <p className="max-w-prose text-black/75">{t('general.intro')}</p>

      <Fieldset legend={t('group.site')}>
        <div className="grid gap-5 lg:grid-cols-2">
          <TextField
            form={form}
            path="site_title"
            label={t('field.siteTitle')}
            options={{ required: true, maxLength: 120, lang: 'fr' }}
          />
          <TextField
            form={form}
            path="site_title_en"
            label={t('field.siteTitleEn')}
            options={{ maxLength: 120, lang: 'en', hint: t('field.siteTitleEnHint') }}
          />
          {(['fr', 'en'] as const).map((lang) => (
            <TextField
              key={lang}
              form={form}
              path={`site_description.${lang}`}
              label={t(lang === 'fr' ? 'field.descriptionFr' : 'field.descriptionEn')}
              options={{
                required: true,
                rows: 4,
                maxLength: 300,
                lang,
                hint: t('field.descriptionHint'),
              }}
            />
          ))}
        </div>
      </Fieldset>

      <Fieldset legend={t('group.contact')}>
        <div className="grid gap-5 md:grid-cols-2">
          <TextField
            form={form}
            path="contact_email"
            label={t('field.contactEmail')}
            options={{ type: 'email', required: true, maxLength: 254, autoComplete: 'email' }}
          />
          <TextField
            form={form}
            path="contact_phone"
            label={t('field.contactPhone')}
            options={{ type: 'tel', maxLength: 40, autoComplete: 'tel' }}
          />
          <TextField
            form={form}
            path="contact_address"
            label={t('field.contactAddress')}
            options={{ maxLength: 300, className: 'md:col-span-2' }}
          />
          <TextField
            form={form}
            path="instagram_url"
            label={t('field.instagram')}
            options={{
              type: 'url',
              maxLength: 300,
              hint: t('field.instagramHint'),
              placeholder: 'https://www.instagram.com/…',
              className: 'md:col-span-2',
            }}
          />
        </div>
      </Fieldset>

      <MaintenanceFieldset t={t} form={form} saved={saved} />
      <LegalFieldset t={t} form={form} />

      {saveBar}
    </form>
  );
}
