// GET /api/admin/settings → the live site settings; PATCH `{ <key>: value, … }` saves the given
// keys in one transaction, each checked by its schema (400 `invalid_input` naming the fields,
// nothing saved). Money, promo codes, currency and maintenance act on the next request; texts the
// prerendered pages show ask for a publish (api/settings). Admin only (middleware).
import { z } from 'zod';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import { liveSettings, saveSettings, SettingsError } from '#api/settings/index.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async () => ({ settings: await liveSettings(await getDb()) }),
});

export const PATCH = defineEndpoint({
  schema: z.record(z.string().max(64), z.unknown()),
  maxBytes: 65_536,
  handler: async (patch) => {
    try {
      const { settings, changed } = await saveSettings(await getDb(), patch);
      return { settings, changed };
    } catch (error) {
      if (error instanceof SettingsError)
        throw new AppError('invalid_input', { fields: error.fields, cause: error });
      throw error;
    }
  },
});
