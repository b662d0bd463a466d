// Outgoing mail through nodemailer. With SMTP_URL (smtp://user:pass@host:587, smtps://…:465; query
// options such as ?ignoreTLS=true are passed through) mail is really delivered; without it every
// message is written as an .eml file under DATA_DIR/mail/, which any mail client opens.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { loadConfig, type AppConfig } from '../config.ts';

export interface MailAddress {
  name: string;
  address: string;
}

export interface MailMessage {
  to: string | MailAddress;
  subject: string;
  text: string;
  /** The same message as HTML (api/mail/compose.ts); the text stays the alternative. */
  html?: string;
  replyTo?: string | MailAddress;
  /** Defaults to the mailer's `from`. */
  from?: string | MailAddress;
  /** Files sent with the message (an invoice, a credit note), passed to nodemailer as they are. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  content: Uint8Array;
  contentType: string;
}

export interface Mailer {
  /** Resolves once the message is accepted by the SMTP server (or written to disk). */
  send(message: MailMessage): Promise<void>;
  /** Where mail goes, without secrets: 'smtp://host:port' or the .eml directory. */
  readonly description: string;
}

export type MailerConfig = Pick<AppConfig, 'smtpUrl' | 'dataDir'> & {
  /** Default sender. */
  from?: string | MailAddress;
};

export const DEFAULT_FROM: MailAddress = { name: 'Galerie', address: 'no-reply@localhost' };

// Nodemailer waits up to 2 min to connect and 10 min on a silent socket by default: far too long
// for a visitor waiting on the contact form. SMTP_URL query options still override these.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function mailDirFor(config: Pick<AppConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'mail');
}

export function createMailer(config: MailerConfig): Mailer {
  const from = config.from ?? DEFAULT_FROM;
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport({ ...SMTP_TIMEOUTS, url: config.smtpUrl });
    return {
      description: describeSmtpUrl(config.smtpUrl),
      async send(message) {
        await transport.sendMail({ from, ...message, attachments: nodemailerFiles(message) });
      },
    };
  }
  const dir = mailDirFor(config);
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  return {
    description: dir,
    async send(message) {
      const info = await transport.sendMail({
        from,
        ...message,
        attachments: nodemailerFiles(message),
      });
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[-:.]/g, '');
      const file = path.join(dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      // buffer: true makes the message a Buffer; a stream is only returned without it. Written
      // aside, then renamed: a reader of the folder never meets half a message.
      const partial = path.join(dir, `.${path.basename(file)}.partial`);
      await fs.writeFile(partial, info.message as Buffer, { flag: 'wx' });
      await fs.rename(partial, file);
    },
  };
}

/** Attachments as nodemailer takes them (a Buffer each), or none. */
function nodemailerFiles(message: MailMessage) {
  return (message.attachments ?? []).map((file) => ({
    filename: file.filename,
    content: Buffer.from(file.content),
    contentType: file.contentType,
  }));
}

/** The SMTP URL without credentials or query options, safe to print. */
export function describeSmtpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'SMTP_URL (not a valid URL)';
  }
}

const KEY = Symbol.for('galerie.mailer');
const holder = globalThis as { [KEY]?: Mailer };

/** Sets the process's mailer (tests, or a server that builds it itself). */
export function provideMailer(mailer: Mailer): void {
  holder[KEY] = mailer;
}

/** The process's mailer, configured from the environment on first use. */
export function getMailer(): Mailer {
  return (holder[KEY] ??= createMailer(loadConfig()));
}
