import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import {
  CONTACT_SUBJECTS,
  contactSchema,
  enquirySchema,
  fieldErrors,
  type ContactInput,
} from './contact.ts';

const good: ContactInput = {
  name: 'Ana Souza',
  email: 'ana@example.pt',
  subject: 'private_visit',
  message: 'Bonjour, je souhaiterais visiter l’atelier en mars.',
  website: '',
  locale: 'fr',
};

const errorsOf = (input: unknown) => {
  const result = contactSchema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? {} : fieldErrors(result.error);
};

describe('contact schema', () => {
  it('accepts a good message and trims its texts', () => {
    const result = contactSchema.safeParse({
      ...good,
      name: '  Ana Souza ',
      email: ' ana@example.pt ',
      message: '\n Bonjour \n',
    });
    expect(result.success && result.data).toEqual({
      ...good,
      name: 'Ana Souza',
      email: 'ana@example.pt',
      message: 'Bonjour',
    });
    expect(contactSchema.safeParse({ ...good, website: undefined }).success).toBe(true);
    const { website: _omitted, ...withoutHoneypot } = good;
    expect(contactSchema.safeParse(withoutHoneypot).success).toBe(true);
  });

  it('accepts every subject of the spec’s first reading and nothing else', () => {
    expect(CONTACT_SUBJECTS).toEqual([
      'information',
      'private_visit',
      'purchase',
      'exhibition',
      'press',
      'other',
    ]);
    for (const subject of CONTACT_SUBJECTS)
      expect(contactSchema.safeParse({ ...good, subject }).success).toBe(true);
    expect(errorsOf({ ...good, subject: 'commission' })).toEqual({
      subject: 'contact.error.subject',
    });
  });

  it.each([
    ['name', '', 'contact.error.name'],
    ['name', '   ', 'contact.error.name'],
    ['name', 'x'.repeat(201), 'contact.error.name'],
    ['name', 42, 'contact.error.name'],
    ['email', 'ana@', 'contact.error.email'],
    ['email', 'ana example.pt', 'contact.error.email'],
    ['email', `${'a'.repeat(245)}@example.pt`, 'contact.error.email'],
    ['subject', '', 'contact.error.subject'],
    ['message', ' \n ', 'contact.error.message'],
    ['message', 'x'.repeat(5001), 'contact.error.message'],
    ['website', 7, 'contact.error.invalid'],
    ['locale', 'de', 'contact.error.invalid'],
  ])('refuses %s = %j with %s', (field, value, key) => {
    expect(errorsOf({ ...good, [field]: value })).toEqual({ [field]: key });
  });

  it('keeps the limits at their edges', () => {
    expect(contactSchema.safeParse({ ...good, name: 'x'.repeat(200) }).success).toBe(true);
    expect(contactSchema.safeParse({ ...good, message: 'x'.repeat(5000) }).success).toBe(true);
    const email = `${'a'.repeat(243)}@example.pt`;
    expect(email).toHaveLength(254);
    expect(contactSchema.safeParse({ ...good, email }).success).toBe(true);
  });

  it('reports every missing field at once', () => {
    expect(errorsOf({ locale: 'en' })).toEqual({
      name: 'contact.error.name',
      email: 'contact.error.email',
      subject: 'contact.error.subject',
      message: 'contact.error.message',
    });
  });

  it('refuses unknown fields and non-objects under `_`, without blaming a field', () => {
    const extra = contactSchema.safeParse({ ...good, phone: '+351' });
    expect(extra.success).toBe(false);
    expect(extra.error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['phone'], path: [] }),
    ]);
    expect(errorsOf({ ...good, phone: '+351' })).toEqual({ _: 'contact.error.invalid' });
    expect(Object.keys(errorsOf('hello'))).toEqual(['_']);
    expect(Object.keys(errorsOf(null))).toEqual(['_']);
  });

  it('only uses error keys both dictionaries translate', () => {
    const keys = new Set<string>();
    const collect = (input: unknown) => {
      const result = contactSchema.safeParse(input);
      for (const issue of result.error?.issues ?? []) keys.add(issue.message);
    };
    collect({ website: 1, locale: 'xx', subject: 'x', unknown: true });
    collect(null);
    expect([...keys].sort()).toEqual([
      'contact.error.email',
      'contact.error.invalid',
      'contact.error.message',
      'contact.error.name',
      'contact.error.subject',
    ]);
    for (const key of keys) {
      expect(fr).toHaveProperty([key]);
      expect(en).toHaveProperty([key]);
    }
  });
});

describe('enquiry schema (issue 25)', () => {
  const enquiry = {
    name: 'Inès',
    email: 'ines@example.fr',
    message: 'L’original est-il encadré ?',
    work: 'le-grand-large',
    website: '',
    locale: 'fr',
  };
  const errors = (input: unknown) => {
    const result = enquirySchema.safeParse(input);
    return result.success ? {} : fieldErrors(result.error);
  };

  it('takes the contact form’s fields and a work page key, nothing else', () => {
    expect(enquirySchema.safeParse({ ...enquiry, name: ' Inès ' }).data).toEqual(enquiry);
    expect(errors({ ...enquiry, subject: 'information' })).toEqual({ _: 'contact.error.invalid' });
    expect(errors({ ...enquiry, title: 'Un autre titre' })).toEqual({
      _: 'contact.error.invalid',
    });
  });

  it('refuses what is no page key, with keys both dictionaries translate', () => {
    for (const work of ['', 'Le Grand Large', '../admin', '//evil.example', 'a'.repeat(201), 7])
      expect(errors({ ...enquiry, work })).toEqual({ work: 'contact.error.invalid' });
    expect(errors({ ...enquiry, email: 'x', message: ' ' })).toEqual({
      email: 'contact.error.email',
      message: 'contact.error.message',
    });
    for (const key of ['contact.error.invalid', 'work.enquiry.error.work', 'work.enquiry.title']) {
      expect(fr).toHaveProperty([key]);
      expect(en).toHaveProperty([key]);
    }
  });
});
