// The account mails, in the visitor's language, HTML with a plain-text alternative: the e-mail verification link, the
// notice that someone tried to sign up with an address that already has an account, and the
// password reset link. Links are absolute, built from the site's public URL. No mail repeats what
// a visitor typed (a name): whoever signs up with someone else's address must not be able to put
// words in a mail we send to that person.
import { composeMail, type MailPart } from '../mail/compose.ts';
import type { MailMessage } from '../mail/index.ts';
import type { SiteSettings } from '../settings/index.ts';

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
      'Votre compte a bien été créé. Pour confirmer que cette adresse est la vôtre, ouvrez ce lien :',
      '',
      url,
      '',
      'Le lien est valable 24 heures. Une fois l’adresse confirmée, votre compte affiche aussi les commandes passées avec elle sans être connecté.',
      '',
      'Si vous n’avez pas créé de compte, ignorez ce message.',
    ],
    existsSubject: 'Tentative d’inscription avec votre adresse',
    exists: (login: string) => [
      'Quelqu’un vient d’essayer de créer un compte avec votre adresse e-mail, qui a déjà un compte chez nous. Aucun nouveau compte n’a été créé.',
      '',
      'Si c’était vous, connectez-vous ici (le lien « mot de passe oublié » de cette page permet d’en choisir un nouveau) :',
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
      'Your account has been created. To confirm that this address is yours, open this link:',
      '',
      url,
      '',
      'The link is valid for 24 hours. Once the address is confirmed, your account also shows the orders placed with it while signed out.',
      '',
      'If you did not create an account, please ignore this message.',
    ],
    existsSubject: 'Someone tried to sign up with your address',
    exists: (login: string) => [
      'Someone just tried to create an account with your email address, which already has an account with us. No new account was created.',
      '',
      'If it was you, sign in here (the “forgot password” link on that page lets you choose a new one):',
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
    from: { name: settings.site_title, address: settings.contact_email },
    subject: `${subject} — ${settings.site_title}`,
    ...composeMail(locale, parts, settings.site_title),
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
