// The Général tab (back office §2 "Site settings"; issues 12, 27): the site's title and description
// in both languages, the contact details, maintenance mode (src/admin/settings/MaintenanceFieldset.tsx)
// and the seller's legal identity (LegalFieldset.tsx), on the tab's react-hook-form. Each group's
// text fields are a table of rows (fields.tsx `TextFields`).
import type { ReactNode } from 'react';
import type { SiteSettings } from '../../schemas/settings.ts';
import type { Translate } from '../ui/kit.tsx';
import type { GeneralDraft } from './drafts.ts';
import { Fieldset, TextFields, type TextFieldRow } from './fields.tsx';
import LegalFieldset from './LegalFieldset.tsx';
import MaintenanceFieldset from './MaintenanceFieldset.tsx';
import type { SettingsTabState } from './useSettingsTab.ts';

interface Props {
  t: Translate;
  state: SettingsTabState<'general'>;
  saved: SiteSettings;
  saveBar: ReactNode;
}

/** The site's title in each language, then its description in each (a text area). */
function siteRows(t: Translate): TextFieldRow<GeneralDraft>[] {
  const titleEn = { maxLength: 120, lang: 'en', hint: t('field.siteTitleEnHint') };
  const description = (lang: 'fr' | 'en') =>
    [
      `site_description.${lang}`,
      t(lang === 'fr' ? 'field.descriptionFr' : 'field.descriptionEn'),
      { required: true, rows: 4, maxLength: 300, lang, hint: t('field.descriptionHint') },
    ] as const;
  return [
    ['site_title', t('field.siteTitle'), { required: true, maxLength: 120, lang: 'fr' }],
    ['site_title_en', t('field.siteTitleEn'), titleEn],
    description('fr'),
    description('en'),
  ];
}

/** How buyers reach the gallery: email, phone, postal address and Instagram. */
function contactRows(t: Translate): TextFieldRow<GeneralDraft>[] {
  const email = { type: 'email', required: true, maxLength: 254, autoComplete: 'email' } as const;
  const instagram = {
    type: 'url',
    maxLength: 300,
    hint: t('field.instagramHint'),
    placeholder: 'https://www.instagram.com/…',
    className: 'md:col-span-2',
  } as const;
  return [
    ['contact_email', t('field.contactEmail'), email],
    ['contact_phone', t('field.contactPhone'), { type: 'tel', maxLength: 40, autoComplete: 'tel' }],
    ['contact_address', t('field.contactAddress'), { maxLength: 300, className: 'md:col-span-2' }],
    ['instagram_url', t('field.instagram'), instagram],
  ];
}

export default function GeneralTab({ t, state, saved, saveBar }: Props) {
  const { form } = state;
  return (
    <form noValidate onSubmit={(event) => void state.submit(event)} className="space-y-6">
      <p className="max-w-prose text-black/75">{t('general.intro')}</p>

      <Fieldset legend={t('group.site')}>
        <div className="grid gap-5 lg:grid-cols-2">
          <TextFields form={form} rows={siteRows(t)} />
        </div>
      </Fieldset>

      <Fieldset legend={t('group.contact')}>
        <div className="grid gap-5 md:grid-cols-2">
          <TextFields form={form} rows={contactRows(t)} />
        </div>
      </Fieldset>

      <MaintenanceFieldset t={t} form={form} saved={saved} />
      <LegalFieldset t={t} form={form} />

      {saveBar}
    </form>
  );
}
