// The account mails, in the visitor's language, HTML with a plain-text alternative: the e-mail verification link, the
// notice that someone tried to sign up with an address that already has an account, and the
// password reset link. Links are absolute, built from the site's public URL. No mail repeats what
// a visitor typed (a name): whoever signs up with someone else's address must not be able to put
// words in a mail we send to that person.
import { composeMail, type MailPart } from '../mail/compose.ts';
import type { MailMessage } from '../mail/index.ts';
import type { SiteSettings } from '../settings/index.ts';
import { siteTitle } from '../../src/schemas/settings.ts';
import { formatLongDate } from '../../src/domain/dates.ts';

export type Locale = 'fr' | 'en';

/** `/path` in a locale: French unprefixed, English under /en (as src/i18n's localizedPath). */
export function localePath(locale: Locale, path: string): string {
  return locale === 'en' ? `/en${path}` : path;
}

export function verificationUrl(siteUrl: string, token: string, locale: Locale): string {
  const query = new URLSearchParams({ token, ...(locale === 'en' ? { locale } : {}) });
  return `${siteUrl}/api/auth/verify-email?${query}`;
}

export function resetPasswordUrl(siteUrl: string, token: string, locale: Locale): string {
  return `${siteUrl}${localePath(locale, '/reset-password')}?${new URLSearchParams({ token })}`;
}

const TEXT = {
  fr: {
    hello: 'Bonjour,',
    verifySubject: 'Confirmez votre adresse e-mail',
    verify: (url: string) => [
      'Pour terminer la création de votre compte et confirmer que cette adresse est la vôtre, ouvrez ce lien :',
      '',
      url,
      '',
      'Le lien est valable 24 heures. Ouvert dans le navigateur où vous vous êtes inscrit, il vous connecte aussitôt ; ailleurs, il confirme l’adresse et vous vous connectez ensuite avec votre mot de passe.',
      '',
      'Une fois l’adresse confirmée, votre compte affiche aussi les commandes passées avec elle sans être connecté.',
      '',
      'Si vous n’avez pas créé de compte, ignorez ce message : personne ne peut utiliser ce compte sans ce lien.',
    ],
    existsSubject: 'Tentative d’inscription avec votre adresse',
    exists: (login: string) => [
      'Quelqu’un vient d’essayer de créer un compte avec votre adresse e-mail, qui a déjà un compte chez nous. Aucun nouveau compte n’a été créé.',
      '',
      'Si c’était vous, connectez-vous ici. Si vous n’aviez pas encore confirmé votre adresse, ou si vous avez oublié votre mot de passe, le lien « Mot de passe oublié ? » de cette page vous permet d’en choisir un nouveau ; il confirme aussi votre adresse :',
      '',
      login,
      '',
      'Si ce n’était pas vous, vous pouvez ignorer ce message : votre compte n’a pas changé.',
    ],
    resetSubject: 'Réinitialisation de votre mot de passe',
    reset: (url: string) => [
      'Vous avez demandé à choisir un nouveau mot de passe. Ouvrez ce lien (valable 1 heure, une seule fois) :',
      '',
      url,
      '',
      'Une fois le mot de passe changé, toutes vos sessions ouvertes sont fermées.',
      '',
      'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste le même.',
    ],
  },
  en: {
    hello: 'Hello,',
    verifySubject: 'Confirm your email address',
    verify: (url: string) => [
      'To finish creating your account and confirm that this address is yours, open this link:',
      '',
      url,
      '',
      'The link is valid for 24 hours. Opened in the browser you signed up with, it signs you in at once; anywhere else, it confirms the address and you then sign in with your password.',
      '',
      'Once the address is confirmed, your account also shows the orders placed with it while signed out.',
      '',
      'If you did not create an account, please ignore this message: nobody can use the account without this link.',
    ],
    existsSubject: 'Someone tried to sign up with your address',
    exists: (login: string) => [
      'Someone just tried to create an account with your email address, which already has an account with us. No new account was created.',
      '',
      'If it was you, sign in here. If you had not confirmed your address yet, or have forgotten your password, the “Forgot your password?” link on that page lets you choose a new one; it confirms your address too:',
      '',
      login,
      '',
      'If it was not you, you can ignore this message: your account has not changed.',
    ],
    resetSubject: 'Reset your password',
    reset: (url: string) => [
      'You asked to choose a new password. Open this link (valid for 1 hour, once):',
      '',
      url,
      '',
      'Once the password is changed, all your open sessions are signed out.',
      '',
      'If you did not ask for this, ignore this message: your password stays the same.',
    ],
  },
} as const;

function message(
  settings: SiteSettings,
  to: string,
  subject: string,
  lines: readonly string[],
  locale: Locale,
): MailMessage {
  // Paragraphs are separated by blank lines; a paragraph that is a URL becomes the mail's button.
  const parts: MailPart[] = [{ p: TEXT[locale].hello }];
  for (const line of lines) {
    if (!line) continue;
    parts.push(
      /^https?:\/\//.test(line) ? { link: { label: LINK_LABEL[locale], href: line } } : { p: line },
    );
  }
  return {
    to,
    from: { name: siteTitle(settings, locale), address: settings.contact_email },
    subject: `${subject} — ${siteTitle(settings, locale)}`,
    ...composeMail(locale, parts, siteTitle(settings, locale)),
  };
}

const LINK_LABEL: Record<Locale, string> = { fr: 'Ouvrir le lien', en: 'Open the link' };

export function verificationMail(
  settings: SiteSettings,
  email: string,
  url: string,
  locale: Locale,
): MailMessage {
  const t = TEXT[locale];
  return message(settings, email, t.verifySubject, t.verify(url), locale);
}

export function alreadyRegisteredMail(
  settings: SiteSettings,
  email: string,
  siteUrl: string,
  locale: Locale,
): MailMessage {
  const t = TEXT[locale];
  const login = `${siteUrl}${localePath(locale, '/login')}`;
  return message(settings, email, t.existsSubject, t.exists(login), locale);
}

export function resetPasswordMail(
  settings: SiteSettings,
  email: string,
  url: string,
  locale: Locale,
): MailMessage {
  const t = TEXT[locale];
  return message(settings, email, t.resetSubject, t.reset(url), locale);
}

/**
 * To an administrator, in French (the back office's language): a recovery code of their account
 * was just used. One they did not use means someone has their password and a code: the mail says
 * what to do.
 */
export function recoveryCodeUsedMail(
  settings: SiteSettings,
  email: string,
  use: { at: Date; left: number; securityUrl: string },
): MailMessage {
  const when = formatLongDate('fr', use.at, { time: true });
  const left =
    use.left === 0
      ? 'Il ne vous reste aucun code de secours : générez-en de nouveaux dès maintenant.'
      : `Il vous reste ${use.left} code${use.left > 1 ? 's' : ''} de secours.`;
  return message(
    settings,
    email,
    'Un code de secours a été utilisé',
    [
      `Un code de secours de votre compte administrateur a été utilisé le ${when} (heure de Paris). Il ne fonctionnera plus.`,
      '',
      left,
      '',
      'Si ce n’était pas vous, quelqu’un connaît votre mot de passe et détient vos codes : changez votre mot de passe, puis désactivez et réactivez la double authentification pour obtenir une nouvelle clé et de nouveaux codes de secours.',
      '',
      use.securityUrl,
    ],
    'fr',
  );
}
