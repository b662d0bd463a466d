// The islands' side of i18n: texts come in as props (pick-messages.ts), already in the page's
// language; this fills their `{placeholders}` like t() in src/i18n/index.ts.
import type { MessageKey } from '../i18n/index.ts';
import type { Messages } from './types.ts';

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

export function translator(messages: Messages): Translate {
  return (key, params = {}) =>
    (messages[key] ?? key).replace(/\{(\w+)\}/g, (match, name: string) =>
      name in params ? String(params[name]) : match,
    );
}
