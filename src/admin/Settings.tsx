// The settings screen (back office §2 "Site settings", §4, §5, §8; issues 12, 27): three tabs, each
// a react-hook-form on the kernel's schema saved in one request (src/admin/settings/useSettingsTab.ts);
// the settings themselves on TanStack Query, first from the server (src/pages/admin/settings.astro).
// 'Actualiser les paramètres' reads them again — after the kit's dialog when edits would be lost.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { SettingsTab, SettingsView, SiteSettings } from '../schemas/settings.ts';
import CommerceTab from './settings/CommerceTab.tsx';
import GeneralTab from './settings/GeneralTab.tsx';
import PromotionsTab from './settings/PromotionsTab.tsx';
import SettingsTabs from './settings/SettingsTabs.tsx';
import { SETTINGS_KEY, useSettingsTab, type SettingsTabState } from './settings/useSettingsTab.ts';
import { adminFetch, withAdminQuery } from './query.tsx';
import { confirmDialog } from './ui/confirm.tsx';
import { BUTTON, SaveBar, translator, type Texts, type Translate } from './ui/kit.tsx';

interface Props {
  /** null when the server could not read them: the screen reads them itself, or says it cannot. */
  initial: SettingsView | null;
  texts: Texts;
}

function Settings({ initial, texts }: Props) {
  const t = translator(texts);
  const query = useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: () => adminFetch<SettingsView>('GET', '/api/admin/settings'),
    initialData: initial ?? undefined,
  });
  const view = query.data;
  return (
    <div className="space-y-6" aria-busy={query.isFetching || undefined}>
      {view ? (
        <SettingsForms t={t} view={view} refetch={query.refetch} fetching={query.isFetching} />
      ) : (
        <RefreshBar t={t} fetching={query.isFetching} onRefresh={() => void query.refetch()} />
      )}
      <p
        role="alert"
        className="rounded border border-red-700 bg-red-50 p-3 text-sm text-red-950 empty:hidden"
      >
        {query.isError && !query.isFetching ? t('loadError') : ''}
      </p>
    </div>
  );
}

export default withAdminQuery(Settings);

function RefreshBar(props: { t: Translate; fetching: boolean; onRefresh: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p role="status" className="text-sm text-black/75 empty:hidden">
        {props.fetching ? props.t('loading') : ''}
      </p>
      <button
        type="button"
        onClick={props.onRefresh}
        disabled={props.fetching}
        className={`${BUTTON} ml-auto`}
      >
        {props.t('refresh')}
      </button>
    </div>
  );
}

function SettingsForms({
  t,
  view,
  refetch,
  fetching,
}: {
  t: Translate;
  view: SettingsView;
  refetch: () => Promise<{ data?: SettingsView | undefined; isSuccess: boolean }>;
  fetching: boolean;
}) {
  const tabs = {
    general: useSettingsTab('general', view.settings, t),
    commerce: useSettingsTab('commerce', view.settings, t),
    promotions: useSettingsTab('promotions', view.settings, t),
  };
  const dirty = (Object.keys(tabs) as SettingsTab[]).filter((name) => tabs[name].dirty);
  const anyDirty = dirty.length > 0;

  // Leaving the page with unsaved edits asks first (the browser's own question).
  useEffect(() => {
    if (!anyDirty) return;
    const stay = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', stay);
    return () => window.removeEventListener('beforeunload', stay);
  }, [anyDirty]);

  async function refresh() {
    if (
      anyDirty &&
      !(await confirmDialog({
        title: t('refreshConfirmTitle'),
        message: t('refreshConfirmText'),
        confirmLabel: t('refreshConfirm'),
        cancelLabel: t('cancel'),
      }))
    )
      return;
    const result = await refetch();
    if (result.isSuccess && result.data) restartAll(result.data.settings);
  }
  const restartAll = (settings: SiteSettings) =>
    Object.values(tabs).forEach((tab) => tab.restart(settings));

  const saveBar = (
    state: Pick<
      SettingsTabState<SettingsTab>,
      'saving' | 'dirty' | 'banner' | 'discard' | 'submit'
    >,
    label: string,
    submit: boolean,
  ) => (
    <SaveBar
      t={t}
      label={label}
      saving={state.saving}
      disabled={fetching}
      dirty={state.dirty}
      banner={state.banner}
      onDiscard={state.discard}
      {...(submit ? {} : { onSave: () => void state.submit() })}
    />
  );

  return (
    <>
      <RefreshBar t={t} fetching={fetching} onRefresh={() => void refresh()} />
      <SettingsTabs
        t={t}
        dirty={dirty}
        panels={{
          general: (
            <GeneralTab
              t={t}
              state={tabs.general}
              saved={view.settings}
              saveBar={saveBar(tabs.general, t('general.save'), true)}
            />
          ),
          commerce: (
            <CommerceTab
              t={t}
              state={tabs.commerce}
              saved={view.settings}
              payment={view.payment}
              saveBar={saveBar(tabs.commerce, t('commerce.save'), true)}
            />
          ),
          promotions: (
            <PromotionsTab
              t={t}
              state={tabs.promotions}
              saved={view.settings}
              saveBar={saveBar(tabs.promotions, t('promo.save'), false)}
            />
          ),
        }}
      />
    </>
  );
}
