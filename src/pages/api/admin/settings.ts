// GET /api/admin/settings → `{ settings, payment, changed: [] }`: the live site settings and how
// card payments are really taken (Stripe LIVE/TEST or the emulator, keys configured or not).
// PATCH `{ <key>: value, … }` saves one tab's keys in one transaction, each checked by the shared
// schema (src/schemas/settings.ts): 400 `invalid_input` naming every bad field, nothing saved.
// Every change is audited before → after; a change of currency or shipping costs (what a card is
// charged) needs a re-authentication (403 `reauth_required`, docs/decisions/037). Money, promo
// codes, currency and maintenance act on the next request; texts the prerendered pages show ask
// for a publish. Admin only (middleware).
import { z } from 'zod';
import { requireAdmin } from '#api/accounts/guards.ts';
import { isRecentlyReauthenticated, requireRecentAuth } from '#api/accounts/second-factor.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError, isAppError } from '#api/http/errors.ts';
import { saveSettings, SettingsError } from '#api/settings/index.ts';
import { paymentState, settingsView } from '#api/settings/payment-state.ts';
import type { SettingsView } from '../../../schemas/settings.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async (): Promise<SettingsView> => settingsView(await getDb()),
});

export const PATCH = defineEndpoint({
  schema: z.record(z.string().max(64), z.unknown()),
  maxBytes: 65_536,
  handler: async (patch, { locals }): Promise<SettingsView> => {
    const actor = requireAdmin(locals);
    // Nothing to save is no change (saveSettings would query `key in ()`).
    if (Object.keys(patch).length === 0) return settingsView(await getDb());
    const db = await getDb();
    try {
      const { settings, changed } = await saveSettings(db, patch, actor, {
        paymentChanges: isRecentlyReauthenticated(locals.session),
      });
      return { settings, payment: paymentState(), changed };
    } catch (error) {
      if (error instanceof SettingsError)
        throw new AppError('invalid_input', { fields: error.fields, cause: error });
      // Refused for want of a re-authentication: the answer says what to ask for.
      if (isAppError(error, 'reauth_required')) await requireRecentAuth(db, locals);
      throw error;
    }
  },
});
