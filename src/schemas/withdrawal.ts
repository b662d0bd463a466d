// The withdrawal function's one input and its answers (EU Directive 2023/2673, issue 13 point 9;
// docs/decisions/020): the buyer names the order by its number and the email it was placed with,
// first to see what would be withdrawn ('check'), then to withdraw ('confirm'). Used by the
// island for instant feedback, by the page's no-JavaScript form and by /api/withdrawal. Written
// with zod/mini so the island stays small; error messages are translation keys.
import * as z from 'zod/mini';

export const WITHDRAWAL_STEPS = ['check', 'confirm'] as const;
export type WithdrawalStep = (typeof WITHDRAWAL_STEPS)[number];

export const WITHDRAWAL_LIMITS = { orderNumber: 40, email: 254 } as const;

export const WITHDRAWAL_FIELD_ERRORS = {
  orderNumber: 'withdrawal.error.orderNumber',
  email: 'withdrawal.error.email',
  invalid: 'withdrawal.error.invalid',
} as const;
const E = WITHDRAWAL_FIELD_ERRORS;

/** Letters, digits and dashes (GS-2026-01042), any case: no control character reaches a query. */
const ORDER_NUMBER = /^[A-Za-z0-9-]+$/;

export const withdrawalSchema = z.strictObject(
  {
    orderNumber: z
      .string({ error: E.orderNumber })
      .check(
        z.trim(),
        z.toUpperCase(),
        z.minLength(1, { error: E.orderNumber }),
        z.maxLength(WITHDRAWAL_LIMITS.orderNumber, { error: E.orderNumber }),
        z.regex(ORDER_NUMBER, { error: E.orderNumber }),
      ),
    email: z
      .string({ error: E.email })
      .check(
        z.trim(),
        z.toLowerCase(),
        z.minLength(1, { error: E.email }),
        z.maxLength(WITHDRAWAL_LIMITS.email, { error: E.email }),
        z.regex(z.regexes.email, { error: E.email }),
      ),
    step: z.enum(WITHDRAWAL_STEPS, { error: E.invalid }),
    locale: z.enum(['fr', 'en'], { error: E.invalid }),
  },
  { error: E.invalid },
);

export type WithdrawalInput = z.infer<typeof withdrawalSchema>;

/** One work of the order, as the buyer sees it on the page and in the mail. */
export interface WithdrawalLine {
  title: string;
  type: 'original' | 'print';
  quantity: number;
}

/** What 'check' answers once number and email matched: what a confirmation would withdraw. */
export interface WithdrawalPreview {
  orderNumber: string;
  /** When the order was placed (paid), ISO 8601. */
  orderedAt: string;
  lines: WithdrawalLine[];
  /** The statement the buyer makes by confirming, in the page's language, as it will be kept. */
  statement: string;
  /** The last moment to withdraw, when the period has started (ISO 8601); null until delivery. */
  deadline: string | null;
  /** Set when the buyer already withdrew: the page shows that confirmation instead. */
  requestedAt: string | null;
}

/** What 'confirm' answers, the first time and every time after (idempotent). */
export interface WithdrawalConfirmation {
  orderNumber: string;
  orderedAt: string;
  lines: WithdrawalLine[];
  /** The statement as recorded. */
  statement: string;
  /** When the withdrawal was recorded (ISO 8601); shown in Europe/Paris time. */
  requestedAt: string;
  /** False when this answer repeats an earlier confirmation (no second mail was sent). */
  created: boolean;
  /** Whether the confirmation mail left now; false when it failed (the withdrawal stands). */
  mailed: boolean;
}

export type WithdrawalAnswer =
  | { step: 'check'; preview: WithdrawalPreview }
  | { step: 'confirm'; confirmation: WithdrawalConfirmation };

/** The buyer's time zone for dates and times shown (the gallery is in France). */
export const WITHDRAWAL_TIME_ZONE = 'Europe/Paris';

/** '23 novembre 2026 à 19:15' / '23 November 2026 at 19:15', in Paris time. */
export function formatParisDateTime(locale: 'fr' | 'en', iso: string): string {
  return new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    timeZone: WITHDRAWAL_TIME_ZONE,
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/** '23 novembre 2026' / '23 November 2026', in Paris time. */
export function formatParisDate(locale: 'fr' | 'en', iso: string): string {
  return new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    timeZone: WITHDRAWAL_TIME_ZONE,
    dateStyle: 'long',
  }).format(new Date(iso));
}
