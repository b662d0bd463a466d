import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { z as classic } from 'zod';
import { artworkListQuerySchema, artworkPatchSchema, reorderSchema } from './artworks.ts';
import { addToCartSchema, promoCodeSchema } from './cart.ts';
import { customerEraseSchema, customerListQuerySchema } from './admin-customers.ts';
import { orderStatusChangeSchema } from './admin-orders-input.ts';
import { INT4_MAX, pathRowId } from './fields.ts';
import { INVALID_CHARACTERS, isSingleLine, multiLine, singleLine } from './text.ts';

const line = z.string().check(singleLine());
const area = z.string().check(multiLine());
const classicLine = classic.string().trim().check(singleLine());

const TYPED = ['Ana', 'Élodie d’Almeida', 'Zoë 😀 👩‍🎨', '東京', 'a\u00a0b', '\u200d', ''];
const CONTROLS = ['\u0000', '\u0001', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f'];
const SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', 'a\ud83d', '\ude00b'];

describe('text fields', () => {
  it('accept what people type, in any script, emoji included', () => {
    for (const value of TYPED) {
      expect(line.safeParse(value).success, value).toBe(true);
      expect(area.safeParse(value).success, value).toBe(true);
      expect(classicLine.safeParse(` ${value} `).success, value).toBe(true);
      expect(isSingleLine(value)).toBe(true);
    }
  });

  it('refuse C0 and C1 controls, DEL and lone surrogates, with the one message key', () => {
    for (const bad of [...CONTROLS, ...SURROGATES]) {
      for (const schema of [line, area, classicLine]) {
        const parsed = schema.safeParse(`N${bad}L`);
        expect(parsed.success, JSON.stringify(bad)).toBe(false);
        expect(parsed.error?.issues[0]?.message).toBe(INVALID_CHARACTERS);
      }
      expect(isSingleLine(bad)).toBe(false);
    }
  });

  it('keep line breaks and tabs in a textarea only', () => {
    for (const value of ['a\nb', 'a\r\nb', 'a\tb']) {
      expect(area.safeParse(value).success).toBe(true);
      expect(line.safeParse(value).success).toBe(false);
    }
    expect(area.safeParse('a\u000bb').success).toBe(false);
  });

  it('take the message of the screen that shows it', () => {
    const french = z.string().check(singleLine('Caractères non autorisés'));
    expect(french.safeParse('a\u0000').error?.issues[0]?.message).toBe('Caractères non autorisés');
  });
});

describe('row ids', () => {
  it('are bounded to a PostgreSQL integer in bodies', () => {
    expect(addToCartSchema.safeParse({ artworkId: INT4_MAX }).success).toBe(true);
    for (const artworkId of [INT4_MAX + 1, 99_999_999_999, 2 ** 53, 0, -1, 1.5])
      expect(addToCartSchema.safeParse({ artworkId }).success, String(artworkId)).toBe(false);
    expect(reorderSchema.safeParse({ ids: [1, INT4_MAX + 1] }).success).toBe(false);
    expect(artworkPatchSchema.safeParse({ version: INT4_MAX + 1, year: 2020 }).success).toBe(false);
  });

  it('in a path are plain decimal numbers from 1 to INT4_MAX', () => {
    expect(pathRowId('1')).toBe(1);
    expect(pathRowId(String(INT4_MAX))).toBe(INT4_MAX);
    for (const raw of [
      undefined,
      '',
      '0',
      '-1',
      '01',
      '1.0',
      '1e3',
      '0x10',
      ' 7',
      '7 ',
      String(INT4_MAX + 1),
      '99999999999',
      '9'.repeat(400),
    ])
      expect(pathRowId(raw), String(raw)).toBeNull();
  });
});

describe('every shared input schema', () => {
  it('refuses a NUL in its text fields', () => {
    expect(promoCodeSchema.safeParse({ code: 'PROMO\u0000' }).success).toBe(false);
    expect(
      orderStatusChangeSchema.safeParse({ status: 'shipped', carrier: 'La\u0000Poste' }).success,
    ).toBe(false);
    expect(
      customerEraseSchema.safeParse({ email: 'a@b.test', confirmation: 'a@b.test\u0000' }).success,
    ).toBe(false);
    expect(artworkPatchSchema.safeParse({ collection: 'moderna\u0000' }).success).toBe(false);
  });

  it('falls back to the default list for a search holding one', () => {
    expect(customerListQuerySchema.parse({ q: 'a\u0000b' }).q).toBe('');
    expect(artworkListQuerySchema.parse({ q: 'a\u0000b' }).q).toBe('');
  });
});
