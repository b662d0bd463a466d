// The settings screen's three tabs (APG tabs pattern): one tab stop, arrows move and select
// (wrapping), Home and End go to the ends; the tab in the address (#promotions) survives a reload;
// a tab with unsaved edits says so. Every panel stays mounted, so each keeps its edits.
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { SETTINGS_TABS, type SettingsTab } from '../../domain/settings.ts';
import type { Translate } from '../ui/kit.tsx';

const TABS = Object.keys(SETTINGS_TABS) as SettingsTab[];

const NEXT: Record<string, (at: number) => number> = {
  ArrowRight: (at) => (at + 1) % TABS.length,
  ArrowLeft: (at) => (at + TABS.length - 1) % TABS.length,
  Home: () => 0,
  End: () => TABS.length - 1,
};

export default function SettingsTabs({
  t,
  dirty,
  panels,
}: {
  t: Translate;
  dirty: readonly SettingsTab[];
  panels: Record<SettingsTab, ReactNode>;
}) {
  const [tab, setTab] = useState<SettingsTab>('general');
  const buttons = useRef<Partial<Record<SettingsTab, HTMLButtonElement | null>>>({});

  // Read once hydrated: the server renders the first tab.
  useEffect(() => {
    const wanted = window.location.hash.slice(1);
    if ((TABS as string[]).includes(wanted)) setTab(wanted as SettingsTab);
  }, []);

  function select(name: SettingsTab, focus = false) {
    setTab(name);
    window.history.replaceState(null, '', `#${name}`);
    if (focus) buttons.current[name]?.focus();
  }

  function onKey(event: KeyboardEvent<HTMLButtonElement>) {
    const next = NEXT[event.key];
    if (!next) return;
    event.preventDefault();
    select(TABS[next(TABS.indexOf(tab))]!, true);
  }

  return (
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
              buttons.current[name] = element;
            }}
            type="button"
            role="tab"
            id={`settings-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`settings-panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => select(name)}
            onKeyDown={onKey}
            className="relative -mb-px inline-flex min-h-11 shrink-0 items-center gap-2 border-b-2 border-transparent px-4 text-[0.95rem] whitespace-nowrap text-black/75 hover:text-ink focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ink aria-selected:border-ink aria-selected:font-medium aria-selected:text-ink"
          >
            {t(`tab.${name}`)}
            {dirty.includes(name) && (
              <>
                <span aria-hidden="true" className="size-2 rounded-full bg-accent" />
                <span className="sr-only">{t('tabUnsaved')}</span>
              </>
            )}
          </button>
        ))}
      </div>
      {TABS.map((name) => (
        <div
          key={name}
          role="tabpanel"
          id={`settings-panel-${name}`}
          aria-labelledby={`settings-tab-${name}`}
          hidden={tab !== name}
          className="pt-6"
        >
          {panels[name]}
        </div>
      ))}
    </div>
  );
}
