// The contact form's one input schema (storefront §3 "Contact form", §5): used by the page's script
// for instant feedback and by /api/contact for the real check. Written with zod/mini so the client
// bundle stays small; error messages are translation keys, shown by the client in its language.
import * as z from 'zod/mini';
import { multiLine, singleLine } from './text.ts';

/** storefront §3, first reading of the subject options. */
export const CONTACT_SUBJECTS = [
  'information',
  'private_visit',
  'purchase',
  'exhibition',
  'press',
  'other',
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

export const CONTACT_LIMITS = { name: 200, email: 254, message: 5000 } as const;

const text = (max: number, error: string, characters: z.core.$ZodCheck<string>) =>
  z
    .string({ error })
    .check(z.trim(), z.minLength(1, { error }), z.maxLength(max, { error }), characters);

export const contactSchema = z.strictObject(
  {
    name: text(CONTACT_LIMITS.name, 'contact.error.name', singleLine()),
    email: z
      .string({ error: 'contact.error.email' })
      .check(
        z.trim(),
        z.maxLength(CONTACT_LIMITS.email, { error: 'contact.error.email' }),
        z.regex(z.regexes.email, { error: 'contact.error.email' }),
      ),
    subject: z.enum(CONTACT_SUBJECTS, { error: 'contact.error.subject' }),
    /** A textarea: line breaks are the writer's. */
    message: text(CONTACT_LIMITS.message, 'contact.error.message', multiLine()),
    /** Honeypot: hidden from people, filled in by naive bots; refused whole, never stored. */
    website: z.optional(z.string({ error: 'contact.error.invalid' })),
    locale: z.enum(['fr', 'en'], { error: 'contact.error.invalid' }),
  },
  { error: 'contact.error.invalid' },
);

export type ContactInput = z.infer<typeof contactSchema>;
export type ContactField = keyof ContactInput;

/**
 * A work page's key (/oeuvres/<key>): a slug. The server finds the work by it and refuses one that
 * is not on sale; it never takes a title from the browser.
 */
export const WORK_KEY = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * "Ask about this work" (issue 25): the contact form without a subject — the work is the subject —
 * with the same fields, limits, honeypot and messages, posted to /api/enquiry.
 */
export const enquirySchema = z.strictObject(
  {
    name: contactSchema.shape.name,
    email: contactSchema.shape.email,
    message: contactSchema.shape.message,
    work: z
      .string({ error: 'contact.error.invalid' })
      .check(
        z.maxLength(200, { error: 'contact.error.invalid' }),
        z.regex(WORK_KEY, { error: 'contact.error.invalid' }),
      ),
    website: contactSchema.shape.website,
    locale: contactSchema.shape.locale,
  },
  { error: 'contact.error.invalid' },
);

export type EnquiryInput = z.infer<typeof enquirySchema>;

// The page script loads this module alone: it carries the one field-error format with it.
export { fieldErrors } from './fields.ts';
