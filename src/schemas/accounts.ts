// The account forms' input schemas (storefront §3 "Signup form", §5), shared by the endpoints, the
// accounts service and the islands' form kit: error messages are the translation keys of
// docs/accounts-api.md, which the pages show in their language. Written with zod/mini, small
// enough for the islands' bundle.
import * as z from 'zod/mini';
import type { Issue } from './fields.ts';
import { singleLine } from './text.ts';

/** storefront §5, §9: at least 6 characters; above 256 the server refuses too. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 256;

export const AUTH_FIELD_ERRORS = {
  emailRequired: 'auth.error.emailRequired',
  emailInvalid: 'auth.error.emailInvalid',
  passwordRequired: 'auth.error.passwordRequired',
  passwordTooShort: 'auth.error.passwordTooShort',
  passwordTooLong: 'auth.error.passwordTooLong',
  passwordsDontMatch: 'auth.error.passwordsDontMatch',
  nameRequired: 'auth.error.nameRequired',
  nameTooLong: 'auth.error.nameTooLong',
} as const;
const E = AUTH_FIELD_ERRORS;

export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 200;

/** Trimmed and lowercased: one account per address whatever the case typed. */
const email = z.string({ error: E.emailRequired }).check(
  z.trim(),
  z.toLowerCase(),
  z.minLength(1, { error: E.emailRequired }),
  z.maxLength(EMAIL_MAX_LENGTH, { error: E.emailInvalid }),
  z.refine((value) => value === '' || z.regexes.email.test(value), { error: E.emailInvalid }),
);

/**
 * A new password: 6 to 256 characters, kept exactly as typed (no trimming), without control
 * characters (nobody types them, and a lone surrogate would hash like U+FFFD).
 */
const newPassword = z.string({ error: E.passwordRequired }).check(
  z.minLength(1, { error: E.passwordRequired }),
  z.refine((value) => value === '' || value.length >= PASSWORD_MIN_LENGTH, {
    error: E.passwordTooShort,
  }),
  z.maxLength(PASSWORD_MAX_LENGTH, { error: E.passwordTooLong }),
  singleLine(),
);

/** Required like the password itself; the match is checked below (passwordsMatch). */
const confirmPassword = z
  .string({ error: E.passwordRequired })
  .check(z.minLength(1, { error: E.passwordRequired }));

const fullName = z
  .string({ error: E.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: E.nameRequired }),
    z.maxLength(NAME_MAX_LENGTH, { error: E.nameTooLong }),
    singleLine(),
  );

const locale = z.optional(z.enum(['fr', 'en']));

/** Any string up to a bound: the service answers `invalid_token` for a wrong one. */
const token = z.string().check(z.maxLength(200), singleLine());

function passwordsMatch<T extends { password: string; confirmPassword: string }>() {
  return z.refine<T>((value) => value.password === value.confirmPassword, {
    error: E.passwordsDontMatch,
    path: ['confirmPassword'],
    // Reported even when other fields are wrong, so the form shows every problem at once.
    when: (payload) => {
      const v = payload.value as Partial<T> | undefined;
      return typeof v?.password === 'string' && typeof v.confirmPassword === 'string';
    },
  });
}

export const signupSchema = z
  .strictObject({ email, password: newPassword, confirmPassword, fullName, locale })
  .check(passwordsMatch());

/** Login checks presence only: the stored password decides, whatever its length rules were. */
export const loginSchema = z.strictObject({
  email,
  password: z
    .string({ error: E.passwordRequired })
    .check(
      z.minLength(1, { error: E.passwordRequired }),
      z.maxLength(PASSWORD_MAX_LENGTH, { error: E.passwordTooLong }),
    ),
});

export const forgotPasswordSchema = z.strictObject({ email, locale });

export const resetPasswordSchema = z
  .strictObject({ token, password: newPassword, confirmPassword })
  .check(passwordsMatch());

export const changePasswordSchema = z
  .strictObject({
    currentPassword: z
      .string({ error: E.passwordRequired })
      .check(
        z.minLength(1, { error: E.passwordRequired }),
        z.maxLength(PASSWORD_MAX_LENGTH, { error: E.passwordTooLong }),
      ),
    password: newPassword,
    confirmPassword,
  })
  .check(passwordsMatch());

/** `email` only for the first administrator's setup link, which names no address (decision 048). */
export const acceptInvitationSchema = z
  .strictObject({
    token,
    email: z.optional(email),
    fullName,
    password: newPassword,
    confirmPassword,
  })
  .check(passwordsMatch());

export type SignupInput = z.infer<typeof signupSchema>;
export type LoginInput = z.infer<typeof loginSchema>;
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
export type AcceptInvitationInput = z.infer<typeof acceptInvitationSchema>;

/** Whether a failed parse is only about the token (the answer is then `invalid_token`). */
export function onlyTokenIssues(issues: readonly Issue[]): boolean {
  return issues.length > 0 && issues.every((issue) => issue.path[0] === 'token');
}

/**
 * The administrator login (back office §2, §8): both fields required, with one message for an
 * empty one ('Veuillez remplir tous les champs'); the stored password decides the rest.
 */
export const adminLoginSchema = z.strictObject({
  email: z
    .string({ error: 'admin.login.fillAll' })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, { error: 'admin.login.fillAll' }),
      z.maxLength(EMAIL_MAX_LENGTH, { error: 'admin.login.invalid' }),
      singleLine('admin.login.invalid'),
    ),
  password: z
    .string({ error: 'admin.login.fillAll' })
    .check(
      z.minLength(1, { error: 'admin.login.fillAll' }),
      z.maxLength(PASSWORD_MAX_LENGTH, { error: 'admin.login.invalid' }),
    ),
});
export type AdminLoginInput = z.infer<typeof adminLoginSchema>;
