// One tab of the settings screen as a react-hook-form on the kernel's schema (issue 27): its values
// start from the settings the query holds, it saves in one request (PATCH /api/admin/settings, one
// transaction, audited) with 'Enregistrement...' then the green or red banner (§4, §8), and a
// refused field gets its own message — the resolver's before the round trip, the server's after —
// with the keyboard on the first one. Edits stay in the page until the tab is saved (§4).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type BaseSyntheticEvent } from 'react';
import type { FieldErrors, FieldValues, UseFormReturn } from 'react-hook-form';
import type { ZodType } from 'zod';
import { SETTINGS_SAVED, type SettingsTab } from '../../domain/settings.ts';
import type { SettingKey, SettingsView, SiteSettings } from '../../schemas/settings.ts';
import { adminFetch, adminKeys, errorFields, useAdminMutation } from '../query.tsx';
import { applyServerErrors, useAdminForm } from '../ui/form.ts';
import { fieldId, type Banner, type Translate } from '../ui/kit.tsx';
import { draftOf, type Drafts } from './drafts.ts';

export const SETTINGS_KEY = adminKeys.settings.all;

type Patch = Partial<Record<SettingKey, unknown>>;

/** Every message of a react-hook-form error tree, by dotted path. */
function messagesOf(errors: FieldErrors, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof (value as { message?: unknown }).message === 'string')
      found[path] = (value as { message: string }).message;
    else Object.assign(found, messagesOf(value as FieldErrors, path));
  }
  return found;
}

/** The keyboard on the first refused field of the page (in reading order), kept clear of the bar. */
function focusFirst(paths: string[]) {
  const first = paths
    .map((path) => document.getElementById(fieldId(path)))
    .filter((element): element is HTMLElement => element !== null)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0];
  first?.focus({ preventScroll: true });
  first?.scrollIntoView({ block: 'center' });
}

export interface SettingsTabState<T extends SettingsTab> {
  form: UseFormReturn<Drafts[T], unknown, Patch>;
  /** Checks and saves; given the form's submit event, keeps the browser from sending it. */
  submit: (event?: BaseSyntheticEvent) => Promise<void>;
  saving: boolean;
  banner: Banner | null;
  dirty: boolean;
  /** 'Annuler les modifications': the saved settings again, no message left. */
  discard: () => void;
  /** The settings read again ('Actualiser'): the form starts from them. */
  restart: (settings: SiteSettings) => void;
}

export function useSettingsTab<T extends SettingsTab>(
  tab: T,
  settings: SiteSettings,
  t: Translate,
): SettingsTabState<T> {
  const client = useQueryClient();
  // The kernel's schema (zod/mini), loaded when the tab is first checked: the screen's first
  // load carries no zod. The kit's hook is typed with classic zod's.
  const schema = () =>
    import('./checks.ts').then(
      ({ tabSchema }) => tabSchema(tab) as unknown as ZodType<Patch, Drafts[T] & FieldValues>,
    );
  const form = useAdminForm(schema, {
    defaultValues: draftOf(tab, settings) as never,
    shouldFocusError: false,
  }) as unknown as UseFormReturn<Drafts[T], unknown, Patch>;
  const [banner, setBanner] = useState<Banner | null>(null);

  // An edit makes the banner stale (it spoke of the previous attempt); a reset is no edit.
  useEffect(() => {
    const watching = form.watch((_values, { name }) => {
      if (name) setBanner(null);
    });
    return () => watching.unsubscribe();
  }, [form]);

  const save = useAdminMutation<SettingsView, Patch>({
    mutationFn: (patch) => adminFetch<SettingsView>('PATCH', '/api/admin/settings', patch),
    // Titles, texts, the banner's code, the currency: public pages may change.
    publishes: true,
    onSuccess: (view) => {
      client.setQueryData(SETTINGS_KEY, view);
      form.reset(draftOf(tab, view.settings));
      setBanner({ tone: 'success', text: SETTINGS_SAVED[tab] });
    },
    onError: (error) => {
      const message = applyServerErrors(form as never, error);
      if (message !== null) {
        setBanner({ tone: 'error', text: t('saveError'), detail: message });
        return;
      }
      const fields = errorFields(error);
      // What has no field on the page (a promo code's shows on its row) goes in the banner.
      const elsewhere = Object.entries(fields)
        .filter(([path]) => !document.getElementById(fieldId(path)))
        .filter(([path]) => !path.startsWith('promo_codes.'))
        .map(([, text]) => text);
      setBanner({ tone: 'error', text: t('fixFields'), detail: elsewhere.join(' ') || undefined });
      focusFirst(Object.keys(fields));
    },
  });

  const submit = form.handleSubmit(
    (patch) => {
      if (save.isPending) return;
      setBanner(null);
      save.mutate(patch);
    },
    (errors) => {
      setBanner({ tone: 'error', text: t('fixFields') });
      focusFirst(Object.keys(messagesOf(errors)));
    },
  );

  return {
    form,
    submit,
    saving: save.isPending,
    banner,
    dirty: form.formState.isDirty,
    discard: () => {
      form.reset();
      setBanner(null);
    },
    restart: (fresh) => {
      form.reset(draftOf(tab, fresh));
      setBanner(null);
    },
  };
}
