// The Promotions tab (back office §2, §4, §5; issues 12, 27): add a code (AddPromoForm.tsx), switch
// each on or off or delete it, choose the code the site's banner advertises — all of it in the
// tab's react-hook-form until 'Enregistrer les codes promo' (§4).
import { useId, useState, type ReactNode } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { PromoCode, SiteSettings } from '../../schemas/settings.ts';
import { Field, INPUT, type Translate } from '../ui/kit.tsx';
import AddPromoForm from './AddPromoForm.tsx';
import type { PromotionsDraft } from './drafts.ts';
import { SECTION, useFieldError } from './fields.tsx';
import PromoRow, { type PromoList } from './PromoRow.tsx';
import type { SettingsTabState } from './useSettingsTab.ts';
import Section from '../ui/Section.tsx';

interface Props {
  t: Translate;
  state: SettingsTabState<'promotions'>;
  saved: SiteSettings;
  saveBar: ReactNode;
}

export default function PromotionsTab({ t, state, saved, saveBar }: Props) {
  const { form } = state;
  const [added, setAdded] = useState('');
  const uid = useId();
  const [codes, banner] = useWatch({
    control: form.control,
    name: ['promo_codes', 'promo_banner_code'],
  });
  const before = new Map(saved.promo_codes.map((promo) => [promo.code, promo]));
  const removed = saved.promo_codes.filter((promo) => !codes.some((c) => c.code === promo.code));
  const setCodes = (next: PromoCode[]) =>
    form.setValue('promo_codes', next, { shouldDirty: true, shouldValidate: false });
  const remove = (index: number) => {
    const gone = codes[index]!;
    setCodes(codes.filter((_, i) => i !== index));
    // The banner cannot advertise a code that no longer exists.
    if (gone.code === banner) form.setValue('promo_banner_code', '', { shouldDirty: true });
    setAdded('');
  };
  const toggle = (index: number) =>
    setCodes(codes.map((c, i) => (i === index ? { ...c, active: !c.active } : c)));
  const promoList: PromoList = { t, form, before, toggle, remove };

  return (
    <div className="space-y-6">
      <p className="max-w-prose text-black/75">{t('promo.intro')}</p>
      <AddPromoForm
        t={t}
        codes={codes}
        onAdd={(promo) => {
          setCodes([...codes, promo]);
          setAdded(promo.code);
        }}
        // Said while the new code waits for the save, no longer once saved.
        added={added && !before.has(added) && codes.some((c) => c.code === added) ? added : ''}
      />
      <Section id={`${uid}-list`} title={t('promo.listTitle')} className={SECTION}>
        {!codes.some((promo) => promo.active) && (
          <p className="text-black/75">{t('promo.empty')}</p>
        )}
        {codes.length > 0 && (
          <ul className="divide-y divide-black/10 rounded border border-black/10">
            {codes.map((promo, index) => (
              <PromoRow key={promo.code} promo={promo} index={index} list={promoList} />
            ))}
          </ul>
        )}
        {removed.length > 0 && (
          <p className="text-sm text-black/75">
            {t('promo.pendingDelete', { codes: removed.map((promo) => promo.code).join(', ') })}
          </p>
        )}
      </Section>
      <BannerSection t={t} form={form} codes={codes} banner={banner} id={`${uid}-banner`} />
      {saveBar}
    </div>
  );
}

function BannerSection(props: {
  t: Translate;
  form: UseFormReturn<PromotionsDraft, unknown, unknown>;
  codes: PromoCode[];
  banner: string;
  id: string;
}) {
  const { t, form, codes, banner, id } = props;
  const error = useFieldError(form, 'promo_banner_code');
  return (
    <Section id={id} title={t('banner.title')} className={SECTION}>
      <Field
        path="promo_banner_code"
        label={t('banner.label')}
        hint={t('banner.hint')}
        error={error}
      >
        {(control) => (
          <select
            {...control}
            {...form.register('promo_banner_code')}
            className={`${INPUT} max-w-md`}
          >
            <option value="">{t('banner.none')}</option>
            {codes.map((promo) => (
              <option key={promo.code} value={promo.code}>
                {t(promo.active ? 'banner.option' : 'banner.optionInactive', {
                  code: promo.code,
                  discount: promo.discount,
                })}
              </option>
            ))}
            {/* A saved banner code missing from the list still shows what is stored. */}
            {banner !== '' && !codes.some((promo) => promo.code === banner) && (
              <option value={banner}>{t('banner.optionMissing', { code: banner })}</option>
            )}
          </select>
        )}
      </Field>
    </Section>
  );
}
