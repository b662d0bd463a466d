// The withdrawal function's one input and its answers (EU Directive 2023/2673, issue 13 point 9;
// docs/decisions/020 and 039): the buyer names the order by its number and the email it was
// placed with, first to review the statement ('check'), then to send it ('confirm'). A stranger
// who knows both learns nothing from the answers: only a signed-in buyer naming one of their own
// orders sees its works and withdraws at once; anyone else gets the same receipt whatever
// matched, and the order's mailbox gets the link that confirms. Used by the island for instant
// feedback, by the page's no-JavaScript form and by /api/withdrawal. Written with zod/mini so the
// island stays small; error messages are translation keys.
import * as z from 'zod/mini';
import { formatLongDate } from '../domain/dates.ts';

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

/**
 * What 'check' answers anyone but the signed-in buyer of the order: the statement built from
 * what was typed, and nothing read from the database.
 */
export interface WithdrawalDraft {
  orderNumber: string;
  email: string;
  statement: string;
}

/**
 * What 'confirm' answers anyone but the signed-in buyer of the order, whether or not an order
 * matched: when the statement was sent. If one did, its mailbox has the link that confirms it.
 */
export interface WithdrawalReceipt {
  orderNumber: string;
  email: string;
  /** When the statement was sent (ISO 8601): the date of the withdrawal once confirmed. */
  sentAt: string;
}

/** What 'check' answers a signed-in buyer about one of their orders: what would be withdrawn. */
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
  /** When the statement was sent (ISO 8601), the withdrawal's date; shown in Europe/Paris time. */
  requestedAt: string;
  /** False when this answer repeats an earlier confirmation (no second mail was sent). */
  created: boolean;
  /** Whether the confirmation mail left now; false when it failed (the withdrawal stands). */
  mailed: boolean;
}

export type WithdrawalAnswer =
  | { step: 'check'; preview: WithdrawalPreview }
  | { step: 'check'; draft: WithdrawalDraft }
  | { step: 'confirm'; confirmation: WithdrawalConfirmation }
  | { step: 'confirm'; receipt: WithdrawalReceipt };

/** The mailed link's two answers: the statement was the buyer's, or it was not. */
export const WITHDRAWAL_LINK_ACTIONS = ['confirm', 'disown'] as const;
export type WithdrawalLinkAction = (typeof WITHDRAWAL_LINK_ACTIONS)[number];

/** A statement as its mailed link shows it (only the mailbox has the link). */
export interface WithdrawalByLink {
  state: 'pending' | 'confirmed' | 'disowned';
  orderNumber: string;
  orderedAt: string;
  lines: WithdrawalLine[];
  statement: string;
  /** When the statement was sent: the legal date of the withdrawal. */
  requestedAt: string;
  confirmedAt: string | null;
  disownedAt: string | null;
}

/** The buyer's time zone for dates and times shown (the gallery is in France). */
export const WITHDRAWAL_TIME_ZONE = 'Europe/Paris';

/** '23 novembre 2026 à 19:15' / '23 November 2026 at 19:15', in Paris time. */
export function formatParisDateTime(locale: 'fr' | 'en', iso: string): string {
  return formatLongDate(locale, iso, { time: true, timeZone: WITHDRAWAL_TIME_ZONE });
}

/** '23 novembre 2026' / '23 November 2026', in Paris time. */
export function formatParisDate(locale: 'fr' | 'en', iso: string): string {
  return formatLongDate(locale, iso, { timeZone: WITHDRAWAL_TIME_ZONE });
}
