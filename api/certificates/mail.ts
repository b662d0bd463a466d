// The mail that hands a certificate to a new owner (issue 26): in the language the holder chose,
// the work it certifies, and the claim link — which asks the new owner to sign in to their own
// account. It names no one: the sender typed the address, and the recipient learns only the work.
import { composeMail, type MailPart } from '../mail/compose.ts';
import type { Mailer, MailMessage } from '../mail/index.ts';
import type { SiteSettings } from '../settings/index.ts';
import { siteTitle } from '../../src/schemas/settings.ts';
import { longDate, natureText, type CertificateContent } from './content.ts';

export function claimUrl(siteUrl: string, token: string, locale: 'fr' | 'en'): string {
  return locale === 'en'
    ? `${siteUrl}/en/certificate/transfer?token=${token}`
    : `${siteUrl}/certificat/transfert?token=${token}`;
}

const TEXT = {
  fr: {
    subject: (title: string) => `Un certificat d’authenticité vous est transmis — « ${title} »`,
    intro: (artist: string) =>
      `Le propriétaire d’une œuvre de ${artist} vous transmet son certificat d’authenticité, émis par la galerie :`,
    claim:
      'Pour le recevoir, ouvrez le lien ci-dessous et connectez-vous à votre compte (ou créez-en un) : un nouveau certificat sera émis à votre nom.',
    button: 'Recevoir le certificat',
    expires: (date: string) => `Ce lien est valable jusqu’au ${date}.`,
    ignore: 'Si vous n’attendiez pas ce message, ignorez-le : rien ne change sans votre accord.',
  },
  en: {
    subject: (title: string) => `A certificate of authenticity is being passed to you — “${title}”`,
    intro: (artist: string) =>
      `The owner of a work by ${artist} is passing its certificate of authenticity, issued by the gallery, to you:`,
    claim:
      'To receive it, open the link below and sign in to your account (or create one): a new certificate will be issued in your name.',
    button: 'Receive the certificate',
    expires: (date: string) => `This link works until ${date}.`,
    ignore:
      'If you were not expecting this message, ignore it: nothing changes without your consent.',
  },
} as const;

export function transferMail(
  data: {
    email: string;
    locale: 'fr' | 'en';
    content: CertificateContent;
    url: string;
    expiresAt: string;
  },
  settings: SiteSettings,
): MailMessage {
  const t = TEXT[data.locale];
  const c = data.content;
  const title = c.work.title[data.locale];
  const parts: MailPart[] = [
    { p: t.intro(c.artist) },
    {
      lines: [
        {
          title,
          detail: [c.work.technique[data.locale], c.work.dimensions, natureText(c, data.locale)]
            .filter(Boolean)
            .join(' — '),
          amount: c.work.year ? String(c.work.year) : '',
        },
      ],
    },
    { p: t.claim },
    { link: { label: t.button, href: data.url } },
    { p: t.expires(longDate(data.expiresAt, data.locale)) },
    { p: t.ignore },
  ];
  return {
    to: data.email,
    from: { name: siteTitle(settings, data.locale), address: settings.contact_email },
    subject: t.subject(title),
    ...composeMail(data.locale, parts, siteTitle(settings, data.locale)),
  };
}

export async function sendTransferMail(
  mailer: Mailer,
  data: Parameters<typeof transferMail>[0],
  settings: SiteSettings,
): Promise<void> {
  await mailer.send(transferMail(data, settings));
}
