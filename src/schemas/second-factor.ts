// The second factor's and re-authentication's inputs (docs/decisions/037), shared by the endpoints
// and the forms: a code (six digits from the authenticator app, or a recovery code; spaces and
// hyphens allowed), the password, and the address an administrator invites. Error messages are
// translation keys both login pages and the back office carry.
import * as z from 'zod/mini';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './accounts.ts';
import { singleLine } from './text.ts';

export const SECOND_FACTOR_ERRORS = {
  codeRequired: 'auth.secondFactor.codeRequired',
  codeInvalid: 'auth.secondFactor.codeInvalid',
  passwordRequired: 'auth.error.passwordRequired',
  emailInvalid: 'auth.error.emailInvalid',
} as const;
const E = SECOND_FACTOR_ERRORS;

/** What the server accepts as a code: 6 digits, or 12 letters and digits (recovery code). */
const code = z
  .string({ error: E.codeRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: E.codeRequired }),
    z.maxLength(32, { error: E.codeInvalid }),
    z.regex(/^[\sA-Za-z0-9-]*$/, { error: E.codeInvalid }),
    singleLine(),
  );

const password = z
  .string({ error: E.passwordRequired })
  .check(z.minLength(1, { error: E.passwordRequired }), z.maxLength(PASSWORD_MAX_LENGTH));

/** POST /api/auth/second-factor and the setup's first code. */
export const secondFactorCodeSchema = z.strictObject({ code });

/** Re-authentication and turning the factor off: the password, or a code. */
export const proofSchema = z.union([z.strictObject({ password }), z.strictObject({ code })]);

/** POST /api/admin/invitations: the address of the administrator to invite. */
export const inviteAdminSchema = z.strictObject({
  email: z.string({ error: E.emailInvalid }).check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(EMAIL_MAX_LENGTH, { error: E.emailInvalid }),
    z.refine((value) => z.regexes.email.test(value), { error: E.emailInvalid }),
  ),
});

export type SecondFactorCodeInput = z.infer<typeof secondFactorCodeSchema>;
export type ProofInput = z.infer<typeof proofSchema>;

/** GET /api/admin/second-factor. */
export interface SecondFactorStatusView {
  enabled: boolean;
  recoveryCodesLeft: number;
}

/** POST /api/admin/second-factor/setup: the new key, pending until a first code confirms it. */
export interface TotpSetupView {
  secret: string;
  uri: string;
}

/** Error details of `reauth_required`: what the re-authentication dialog asks for. */
export type ReauthMethod = 'code' | 'password';
