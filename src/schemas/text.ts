// The one rule every text field of every shared schema follows (issue 14 §1): no control
// character reaches the database. PostgreSQL cannot store a NUL in `text` (22021) nor a `\u0000`
// or a lone surrogate in `jsonb` (22P05), and no person types the others; a field edited in a
// textarea keeps its line breaks and tabs. Written with zod/mini: its checks fit classic and mini
// schemas alike (`z.string().trim().check(singleLine())`), and the islands' bundles stay small.
import * as z from 'zod/mini';

/**
 * The field error of a refused character: a key every public page's dictionary carries (they pick
 * `errors.*`); screens that show other texts pass their own.
 */
export const INVALID_CHARACTERS = 'errors.invalid_characters';

// \p{Cc}: C0 controls (NUL included), DEL and C1 controls; \p{Cs}: a surrogate not paired into a
// character (the `u` flag reads a well-formed pair as one code point, which is not Cs).
const SINGLE_LINE = /^[^\p{Cc}\p{Cs}]*$/u;
const MULTI_LINE = /^(?:[^\p{Cc}\p{Cs}]|[\t\n\r])*$/u;

/** Whether `value` holds only characters a single-line field accepts. */
export function isSingleLine(value: string): boolean {
  return SINGLE_LINE.test(value);
}

/** Check for a one-line field (an `<input>`): no control character at all. */
export function singleLine(error: string = INVALID_CHARACTERS) {
  return z.regex(SINGLE_LINE, { error });
}

/** Check for a textarea's field: line breaks (LF, and CR of form posts) and tabs allowed. */
export function multiLine(error: string = INVALID_CHARACTERS) {
  return z.regex(MULTI_LINE, { error });
}
