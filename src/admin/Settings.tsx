// The settings screen (back office §2 "Site settings", §4, §5, §8; issue 12): three tabs, each
// saved in one request (PATCH /api/admin/settings, one transaction, audited) with 'Enregistrement...'
// then the green or red banner and each refused field's own message; 'Actualiser les paramètres'
// reads them again. Edits stay in the page, per tab, until that tab is saved (§4), and the tab says
// so. The first view comes from the server (src/pages/admin/settings.astro).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  SETTINGS_SAVED,
  SETTINGS_TABS,
  type SettingsTab,
  type SettingsView,
} from '../schemas/settings.ts';
import { adminCall, announceChange } from './api.ts';
import CommerceTab from './settings/CommerceTab.tsx';
import ConfirmDialog from './ui/ConfirmDialog.tsx';
import { checkPatch, differs, draftOf, patchOf, type Drafts } from './settings/drafts.ts';
import GeneralTab from './settings/GeneralTab.tsx';
import { BUTTON, fieldId, SaveBar, translator, type Banner, type Texts } from './ui/kit.tsx';
import PromotionsTab from './settings/PromotionsTab.tsx';

interface Props {
  /** null when the server could not read them: the load error shows, 'Actualiser' tries again. */
  initial: SettingsView | null;
  texts: Texts;
}

const TABS = Object.keys(SETTINGS_TABS) as SettingsTab[];

interface TabState {
  saving: boolean;
  banner: Banner | null;
  errors: Record<string, string>;
}
const IDLE: TabState = { saving: false, banner: null, errors: {} };

export default function Settings({ initial, texts }: Props) {
  const t = translator(texts);
  const [view, setView] = useState(initial);
  // Only the tabs the owner edited have a draft; the others show the settings as they stand.
  const [drafts, setDrafts] = useState<Partial<Drafts>>({});
  const [states, setStates] = useState<Record<SettingsTab, TabState>>({
    general: IDLE,
    commerce: IDLE,
    promotions: IDLE,
  });
  const [tab, setTab] = useState<SettingsTab>('general');
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState(initial ? '' : t('loadError'));
  const [confirmRefresh, setConfirmRefresh] = useState(false);
  const tabs = useRef<Partial<Record<SettingsTab, HTMLButtonElement | null>>>({});
  const refreshButton = useRef<HTMLButtonElement>(null);

  // The tab in the address (#promotions) survives a reload; read once hydrated.
  useEffect(() => {
    const wanted = window.location.hash.slice(1);
    if ((TABS as string[]).includes(wanted)) setTab(wanted as SettingsTab);
  }, []);

  const draft = <T extends SettingsTab>(name: T): Drafts[T] | null =>
    (drafts[name] as Drafts[T] | undefined) ?? (view ? draftOf(name, view.settings) : null);
  const dirty = (name: SettingsTab) => {
    const edited = drafts[name];
    return Boolean(edited && view && differs(name, edited, view.settings));
  };
  const anyDirty = TABS.some(dirty);

  // Leaving the page with unsaved edits asks first (the browser's own question).
  useEffect(() => {
    if (!anyDirty) return;
    const stay = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', stay);
    return () => window.removeEventListener('beforeunload', stay);
  }, [anyDirty]);

  const setState = (name: SettingsTab, change: Partial<TabState>) =>
    setStates((all) => ({ ...all, [name]: { ...all[name], ...change } }));

  function update<T extends SettingsTab>(name: T, change: Partial<Drafts[T]>) {
    setDrafts((all) => ({ ...all, [name]: { ...draft(name)!, ...(all[name] ?? {}), ...change } }));
    // An edited field's error goes; the banner too (it spoke of the previous attempt).
    setStates((all) => {
      const errors = { ...all[name].errors };
      for (const path of Object.keys(change))
        for (const key of Object.keys(errors))
          if (key === path || key.startsWith(`${path}.`)) delete errors[key];
      return { ...all, [name]: { ...all[name], errors, banner: null } };
    });
  }

  function select(name: SettingsTab, focus = false) {
    setTab(name);
    window.history.replaceState(null, '', `#${name}`);
    if (focus) tabs.current[name]?.focus();
  }

  /** APG tabs: arrows move and select (wrapping), Home and End go to the ends. */
  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    const at = TABS.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? (at + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (at + TABS.length - 1) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? TABS.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    select(TABS[next]!, true);
  }

  async function refresh() {
    setLoading(true);
    const result = await adminCall<SettingsView>('GET', '/api/admin/settings');
    setLoading(false);
    if (!result.ok) {
      setLoadError(t('loadError'));
      return;
    }
    setLoadError('');
    setView(result.data);
    setDrafts({});
    setStates({ general: IDLE, commerce: IDLE, promotions: IDLE });
  }

  async function save(name: SettingsTab) {
    const edited = draft(name);
    if (!edited || states[name].saving) return;
    const patch = patchOf(name, edited);
    // The shared schema first: the same messages as the server's, without the round trip.
    const local = checkPatch(patch);
    if (Object.keys(local).length) return refused(name, local, '');
    setState(name, { saving: true, banner: null, errors: {} });
    const result = await adminCall<SettingsView>('PATCH', '/api/admin/settings', patch);
    if (!result.ok) {
      const fields = result.error.code === 'invalid_input' ? (result.error.fields ?? {}) : {};
      return refused(name, fields, Object.keys(fields).length ? '' : result.error.message);
    }
    setView(result.data);
    setDrafts(({ [name]: _saved, ...rest }) => rest);
    setState(name, {
      saving: false,
      errors: {},
      banner: { tone: 'success', text: SETTINGS_SAVED[name] },
    });
    announceChange();
  }

  /** The red banner (§8), each field's own message, the keyboard on the first refused field. */
  function refused(name: SettingsTab, fields: Record<string, string>, message: string) {
    const placed = Object.keys(fields).filter((path) => document.getElementById(fieldId(path)));
    // A promo code's message shows on its row; anything else without a field, in the banner.
    const elsewhere = Object.entries(fields)
      .filter(([path]) => !placed.includes(path) && !path.startsWith('promo_codes.'))
      .map(([, text]) => text);
    setState(name, {
      saving: false,
      errors: fields,
      banner: {
        tone: 'error',
        text: t('saveError'),
        detail:
          [Object.keys(fields).length ? t('fixFields') : '', message, ...elsewhere]
            .filter(Boolean)
            .join(' ') || undefined,
      },
    });
    const first = placed[0] && document.getElementById(fieldId(placed[0]));
    if (first) {
      first.focus({ preventScroll: true });
      first.scrollIntoView({ block: 'center' });
    }
  }

  const saveBar = (name: SettingsTab, label: string, submit: boolean) => (
    <SaveBar
      t={t}
      label={label}
      saving={states[name].saving}
      disabled={loading || !view}
      dirty={dirty(name)}
      banner={states[name].banner}
      onDiscard={() => {
        setDrafts(({ [name]: _gone, ...rest }) => rest);
        setState(name, IDLE);
      }}
      {...(submit ? {} : { onSave: () => void save(name) })}
    />
  );

  const general = draft('general');
  const commerce = draft('commerce');
  const promotions = draft('promotions');
  return (
    <div className="space-y-6" aria-busy={loading || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="text-sm text-black/75 empty:hidden">
          {loading ? t('loading') : ''}
        </p>
        <button
          ref={refreshButton}
          type="button"
          onClick={() => (anyDirty ? setConfirmRefresh(true) : void refresh())}
          disabled={loading}
          className={`${BUTTON} ml-auto`}
        >
          {t('refresh')}
        </button>
      </div>
      <p
        role="alert"
        className="rounded border border-red-700 bg-red-50 p-3 text-sm text-red-950 empty:hidden"
      >
        {loadError}
      </p>

      {view && general && commerce && promotions && (
        <div>
          <div
            role="tablist"
            aria-label={t('tabs.label')}
            className="-mx-4 flex overflow-x-auto border-b border-black/15 px-4 md:mx-0 md:px-0"
          >
            {TABS.map((name) => (
              <button
                key={name}
                ref={(element) => {
                  tabs.current[name] = element;
                }}
                type="button"
                role="tab"
                id={`settings-tab-${name}`}
                aria-selected={tab === name}
                aria-controls={`settings-panel-${name}`}
                tabIndex={tab === name ? 0 : -1}
                onClick={() => select(name)}
                onKeyDown={onTabKey}
                className="relative -mb-px inline-flex min-h-11 shrink-0 items-center gap-2 border-b-2 border-transparent px-4 text-[0.95rem] whitespace-nowrap text-black/75 hover:text-ink focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ink aria-selected:border-ink aria-selected:font-medium aria-selected:text-ink"
              >
                {t(`tab.${name}`)}
                {dirty(name) && (
                  <>
                    <span aria-hidden="true" className="size-2 rounded-full bg-accent" />
                    <span className="sr-only">{t('tabUnsaved')}</span>
                  </>
                )}
              </button>
            ))}
          </div>

          <div
            role="tabpanel"
            id="settings-panel-general"
            aria-labelledby="settings-tab-general"
            hidden={tab !== 'general'}
            className="pt-6"
          >
            <GeneralTab
              t={t}
              draft={general}
              saved={view.settings}
              errors={states.general.errors}
              update={(change) => update('general', change)}
              onSubmit={() => void save('general')}
              saveBar={saveBar('general', t('general.save'), true)}
            />
          </div>
          <div
            role="tabpanel"
            id="settings-panel-commerce"
            aria-labelledby="settings-tab-commerce"
            hidden={tab !== 'commerce'}
            className="pt-6"
          >
            <CommerceTab
              t={t}
              draft={commerce}
              saved={view.settings}
              payment={view.payment}
              errors={states.commerce.errors}
              update={(change) => update('commerce', change)}
              onSubmit={() => void save('commerce')}
              saveBar={saveBar('commerce', t('commerce.save'), true)}
            />
          </div>
          <div
            role="tabpanel"
            id="settings-panel-promotions"
            aria-labelledby="settings-tab-promotions"
            hidden={tab !== 'promotions'}
            className="pt-6"
          >
            <PromotionsTab
              t={t}
              draft={promotions}
              saved={view.settings}
              errors={states.promotions.errors}
              update={(change) => update('promotions', change)}
              saveBar={saveBar('promotions', t('promo.save'), false)}
            />
          </div>
        </div>
      )}

      {confirmRefresh && (
        <ConfirmDialog
          id="refresh-confirm"
          title={t('refreshConfirmTitle')}
          confirmLabel={t('refreshConfirm')}
          cancelLabel={t('cancel')}
          returnFocus={refreshButton}
          onConfirm={() => {
            setConfirmRefresh(false);
            void refresh();
          }}
          onCancel={() => setConfirmRefresh(false)}
        >
          <p>{t('refreshConfirmText')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
