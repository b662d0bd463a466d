// Issue 14 §1, "NUL bytes and out-of-range numbers reach PostgreSQL": each probe of the finding
// through the real endpoints and middleware against a real database. A control character in any
// text field (a NUL, DEL, a C1 control, a lone surrogate) or an id beyond its `integer` column is a
// 4xx with the JSON error shape — never a 500 — and nothing is written; a textarea keeps its line
// breaks. Signup answers a taken and a free address alike. What still slips past a schema and
// makes PostgreSQL refuse the data is a 400, not a 500 (api/http/errors.ts).
import { randomBytes } from 'node:crypto';
import type { APIRoute } from 'astro';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addToCart, CART_COOKIE, newCartId } from '#api/cart/index.ts';
import { provideDatabase } from '#api/db/context.ts';
import { errorResponse } from '#api/http/errors.ts';
import { createEmulatedPayments, providePayments } from '#api/payments/index.ts';
import { DEFAULT_SETTINGS } from '#api/settings/index.ts';
import { GET as ARTWORK, PATCH as ARTWORK_PATCH } from '../../src/pages/api/admin/artworks/[id].ts';
import { GET as AUDIT } from '../../src/pages/api/admin/audit.ts';
import { GET as CUSTOMER } from '../../src/pages/api/admin/customers/detail.ts';
import { GET as CUSTOMERS } from '../../src/pages/api/admin/customers/index.ts';
import { PATCH as ORDER_PATCH } from '../../src/pages/api/admin/orders/[id].ts';
import { POST as ADMIN_LOGIN } from '../../src/pages/api/admin/session.ts';
import { PATCH as SETTINGS_PATCH } from '../../src/pages/api/admin/settings.ts';
import { POST as SIGNUP } from '../../src/pages/api/auth/signup.ts';
import { POST as CART_ADD } from '../../src/pages/api/cart/index.ts';
import { DELETE as LINE_DELETE, PATCH as LINE_PATCH } from '../../src/pages/api/cart/lines/[id].ts';
import { POST as CHECKOUT } from '../../src/pages/api/checkout/index.ts';
import { POST as CONTACT } from '../../src/pages/api/contact.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';

const ORIGIN = 'http://localhost:4321';
const INVALID_CHARACTERS = 'errors.invalid_characters';
/** One of each kind PostgreSQL cannot store or nobody types. */
const CONTROLS = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\ud800', '\udfff'];

let t: TestDatabase;
let admin: { token: string };
let print: number;

interface Answer {
  status: number;
  type: string | null;
  body: { error?: { code?: unknown; message?: unknown; fields?: Record<string, string> } } | null;
}

async function send(
  route: APIRoute,
  method: string,
  path: string,
  options: {
    body?: unknown;
    cookies?: Record<string, string>;
    params?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers = new Headers({ origin: ORIGIN });
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  const jar = new Map(Object.entries(options.cookies ?? {}));
  const response = await callEndpoint(route, {
    request: new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      // JSON escapes a NUL (\u0000) and a lone surrogate (\ud800): the server parses them back.
      body: options.body === undefined ? null : JSON.stringify(options.body),
    }),
    params: options.params ?? {},
    cookies: {
      get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined),
      has: (name: string) => jar.has(name),
      set: (name: string, value: unknown) => void jar.set(name, String(value)),
      delete: (name: string) => void jar.delete(name),
    } as never,
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: text ? (JSON.parse(text) as Answer['body']) : null,
  };
}

const asAdmin = (cookies: Record<string, string> = {}) => ({ session: admin.token, ...cookies });

/** A refusal in the one JSON shape: its status, code, and the field it names (with its key). */
function expectRefused(
  answer: Answer,
  expected: { status: number; code: string; field?: string; key?: string },
): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(expected.status);
  expect(answer.type).toMatch(/^application\/json/);
  expect(answer.body?.error?.code).toBe(expected.code);
  expect(typeof answer.body?.error?.message).toBe('string');
  if (expected.field !== undefined) {
    const fields = answer.body?.error?.fields ?? {};
    expect(Object.keys(fields), JSON.stringify(fields)).toContain(expected.field);
    if (expected.key !== undefined) expect(fields[expected.field]).toBe(expected.key);
  }
}

/** Every row a refused request could have written. */
async function footprint() {
  const count = async (
    table:
      | 'users'
      | 'orders'
      | 'holds'
      | 'cart_items'
      | 'contact_messages'
      | 'audit_log'
      | 'site_settings',
  ) =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const [users, orders, holds, cartItems, contact, audit, settings] = await Promise.all([
    count('users'),
    count('orders'),
    count('holds'),
    count('cart_items'),
    count('contact_messages'),
    count('audit_log'),
    count('site_settings'),
  ]);
  const artworks = await t.db
    .selectFrom('artworks')
    .select(['id', 'title_fr', 'description_fr', 'version', 'stock'])
    .orderBy('id')
    .execute();
  return { users, orders, holds, cartItems, contact, audit, settings, artworks };
}

/** Paths to every string in a JSON value: the text fields of a valid input. */
function stringLeaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, k]));
  return [];
}

/** A deep copy of `value` whose string at `path` has `suffix` appended. */
function withSuffix<T>(value: T, path: (string | number)[], suffix: string): T {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  node[last] = `${node[last] as string}${suffix}`;
  return copy as T;
}

async function cartWithPrint(): Promise<string> {
  const cartId = newCartId();
  await addToCart(t.db, cartId, print, 1);
  return cartId;
}

function checkoutBody(overrides: Record<string, unknown> = {}) {
  return {
    locale: 'fr',
    items: [{ artworkId: print, quantity: 1 }],
    customer: { name: 'Ana Buyer', email: 'ana@example.test', phone: '+33 6 00 00 00 00' },
    shippingAddress: {
      street: '1 rue de la Paix',
      city: 'Paris',
      postalCode: '75002',
      country: 'FR',
      additionalInfo: 'Code 1234',
    },
    billingSameAsShipping: false,
    billingAddress: {
      street: '2 avenue Foch',
      city: 'Lyon',
      postalCode: '69006',
      country: 'FR',
      additionalInfo: 'Bâtiment B',
    },
    acceptTerms: true,
    ...overrides,
  };
}

beforeAll(async () => {
  t = await createTestDatabase();
  provideDatabase(t);
  // The artwork endpoint takes the payment client along; editing a title never calls it.
  providePayments(
    createEmulatedPayments(9, `whsec_${randomBytes(16).toString('hex')}`, 'sk_test_unused_here'),
  );
  admin = await makeUser(t.db, { role: 'admin' });
  print = (await makeArtwork(t.db, { artwork_type: 'print', stock: 5 })).id;
});
afterAll(() => t?.dispose());

describe('signup (no account enumeration through an error)', () => {
  it('answers a control character in the name with the same 400 for a taken and a free address', async () => {
    const taken = await makeUser(t.db);
    const free = `libre-${randomBytes(4).toString('hex')}@example.test`;
    const before = await footprint();
    for (const control of CONTROLS) {
      const answers = [];
      for (const email of [taken.email, free]) {
        const answer = await send(SIGNUP, 'POST', '/api/auth/signup', {
          body: {
            email,
            password: 'correct horse 42',
            confirmPassword: 'correct horse 42',
            fullName: `N${control}L`,
            locale: 'fr',
          },
        });
        expectRefused(answer, {
          status: 400,
          code: 'invalid_input',
          field: 'fullName',
          key: INVALID_CHARACTERS,
        });
        answers.push(answer);
      }
      expect(answers[0]).toEqual(answers[1]);
    }
    expect(await footprint()).toEqual(before);
    const created = await t.db.selectFrom('users').select('id').where('email', '=', free).execute();
    expect(created).toHaveLength(0);
  });

  it('refuses a control character in every text field of the form', async () => {
    const valid = {
      email: 'someone@example.test',
      password: 'correct horse 42',
      confirmPassword: 'correct horse 42',
      fullName: 'Ana Buyer',
      locale: 'fr',
    };
    const before = await footprint();
    for (const path of stringLeaves(valid)) {
      const answer = await send(SIGNUP, 'POST', '/api/auth/signup', {
        body: withSuffix(valid, path, '\u0000'),
      });
      expectRefused(answer, { status: 400, code: 'invalid_input', field: path.join('.') });
    }
    expect(await footprint()).toEqual(before);
  });

  it('the admin login refuses a NUL in the address instead of looking it up', async () => {
    const answer = await send(ADMIN_LOGIN, 'POST', '/api/admin/session', {
      body: { email: 'owner\u0000@example.test', password: 'whatever' },
    });
    expectRefused(answer, { status: 400, code: 'invalid_input', field: 'email' });
  });
});

describe('cart (ids bounded to their integer column)', () => {
  it('refuses an artwork id beyond int4 with 400 and adds nothing', async () => {
    const before = await footprint();
    for (const artworkId of [2_147_483_648, 99_999_999_999, 2 ** 53, 1e308, -1, 0, 1.5]) {
      const answer = await send(CART_ADD, 'POST', '/api/cart', { body: { artworkId } });
      expectRefused(answer, { status: 400, code: 'invalid_input', field: 'artworkId' });
    }
    expect(await footprint()).toEqual(before);
  });

  it('answers a line id beyond int4 (or not a plain number) 404, leaving the cart as it was', async () => {
    const cartId = await cartWithPrint();
    const before = await footprint();
    for (const id of ['99999999999', '2147483648', '1e3', '0x10', ' 7', '-1', '0', '1.0']) {
      const options = { params: { id }, cookies: { [CART_COOKIE]: cartId } };
      const path = `/api/cart/lines/${encodeURIComponent(id)}`;
      expectRefused(await send(LINE_PATCH, 'PATCH', path, { ...options, body: { quantity: 2 } }), {
        status: 404,
        code: 'not_found',
      });
      expectRefused(await send(LINE_DELETE, 'DELETE', path, options), {
        status: 404,
        code: 'not_found',
      });
    }
    expect(await footprint()).toEqual(before);
  });
});

describe('checkout', () => {
  it('refuses a NUL in the name or the street, and an id beyond int4, holding nothing', async () => {
    const cartId = await cartWithPrint();
    const cookies = { [CART_COOKIE]: cartId };
    const before = await footprint();
    const base = checkoutBody();
    const probes: Array<[unknown, string, string]> = [
      [
        { ...base, customer: { ...base.customer, name: 'N\u0000L' } },
        'customer.name',
        INVALID_CHARACTERS,
      ],
      [
        { ...base, shippingAddress: { ...base.shippingAddress, street: '1 rue\u0000' } },
        'shippingAddress.street',
        INVALID_CHARACTERS,
      ],
      [
        { ...base, items: [{ artworkId: 2_147_483_648, quantity: 1 }] },
        'items.0.artworkId',
        'checkout.error.itemId',
      ],
    ];
    for (const [body, field, key] of probes) {
      const answer = await send(CHECKOUT, 'POST', '/api/checkout', { body, cookies });
      expectRefused(answer, { status: 400, code: 'invalid_input', field, key });
    }
    expect(await footprint()).toEqual(before);
  });

  it('refuses every kind of control character in every text field', async () => {
    const cookies = { [CART_COOKIE]: await cartWithPrint() };
    const before = await footprint();
    const valid = checkoutBody({ promoCode: 'BIENVENUE' });
    for (const path of stringLeaves(valid))
      for (const control of CONTROLS) {
        const answer = await send(CHECKOUT, 'POST', '/api/checkout', {
          body: withSuffix(valid, path, control),
          cookies,
        });
        expectRefused(answer, { status: 400, code: 'invalid_input', field: path.join('.') });
      }
    expect(await footprint()).toEqual(before);
  });
});

describe('contact', () => {
  it('refuses control characters in the name and the message, storing nothing', async () => {
    const valid = {
      name: 'Ana Buyer',
      email: 'ana@example.test',
      subject: 'information',
      message: 'Bonjour,\r\nune question\tsur « Alfama ».',
      locale: 'fr',
    };
    const before = await footprint();
    for (const path of stringLeaves(valid))
      for (const control of CONTROLS) {
        const answer = await send(CONTACT, 'POST', '/api/contact', {
          body: withSuffix(valid, path, control),
        });
        expectRefused(answer, { status: 400, code: 'invalid_input', field: path.join('.') });
      }
    const nameAnswer = await send(CONTACT, 'POST', '/api/contact', {
      body: { ...valid, name: 'N\u0000L' },
    });
    expectRefused(nameAnswer, {
      status: 400,
      code: 'invalid_input',
      field: 'name',
      key: INVALID_CHARACTERS,
    });
    expect(await footprint()).toEqual(before);
  });
});

describe('back office', () => {
  it('answers an artwork path id beyond int4, or not a plain number, 404', async () => {
    for (const id of ['2147483648', '99999999999', '1e3', '0x10', '-1', '0'])
      expectRefused(
        await send(ARTWORK, 'GET', `/api/admin/artworks/${encodeURIComponent(id)}`, {
          params: { id },
          cookies: asAdmin(),
        }),
        { status: 404, code: 'not_found' },
      );
    const found = await send(ARTWORK, 'GET', `/api/admin/artworks/${print}`, {
      params: { id: String(print) },
      cookies: asAdmin(),
    });
    expect(found.status).toBe(200);
  });

  it('refuses a version beyond int4 and control characters in a work, keeping the textareas’ line breaks', async () => {
    const id = String(print);
    const { version } = await t.db
      .selectFrom('artworks')
      .select('version')
      .where('id', '=', print)
      .executeTakeFirstOrThrow();
    const patch = (body: unknown) =>
      send(ARTWORK_PATCH, 'PATCH', `/api/admin/artworks/${id}`, {
        params: { id },
        cookies: asAdmin(),
        body,
      });
    const before = await footprint();
    expectRefused(await patch({ version: 2_147_483_648, dimensions: '10 x 10 cm' }), {
      status: 400,
      code: 'invalid_input',
      field: 'version',
    });
    expectRefused(await patch({ version, title: { fr: 'N\u0000L', en: 'Title' } }), {
      status: 400,
      code: 'invalid_input',
      field: 'title.fr',
      key: 'admin.artwork.error.characters',
    });
    expectRefused(await patch({ version, description: { fr: 'a\u0000', en: 'b' } }), {
      status: 400,
      code: 'invalid_input',
      field: 'description.fr',
      key: 'admin.artwork.error.characters',
    });
    expectRefused(await patch({ version, dimensions: '10 x\n10 cm' }), {
      status: 400,
      code: 'invalid_input',
      field: 'dimensions',
      key: 'admin.artwork.error.characters',
    });
    expect(await footprint()).toEqual(before);

    const saved = await patch({
      version,
      description: { fr: 'Première ligne\nseconde\tligne', en: 'First line\r\nsecond' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const row = await t.db
      .selectFrom('artworks')
      .select(['description_fr', 'description_en'])
      .where('id', '=', print)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      description_fr: 'Première ligne\nseconde\tligne',
      description_en: 'First line\r\nsecond',
    });
  });

  it('refuses a control character in every text of the site settings, saving nothing', async () => {
    const before = await footprint();
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS))
      for (const path of stringLeaves(value)) {
        const answer = await send(SETTINGS_PATCH, 'PATCH', '/api/admin/settings', {
          cookies: asAdmin(),
          body: {
            [key]:
              path.length === 0 ? `${value as string}\u0000` : withSuffix(value, path, '\u0000'),
          },
        });
        expectRefused(answer, {
          status: 400,
          code: 'invalid_input',
          field: [key, ...path].join('.'),
        });
      }
    expectRefused(
      await send(SETTINGS_PATCH, 'PATCH', '/api/admin/settings', {
        cookies: asAdmin(),
        body: { site_title: 'Galerie\u0000' },
      }),
      {
        status: 400,
        code: 'invalid_input',
        field: 'site_title',
        key: 'Ce champ contient des caractères non autorisés',
      },
    );
    expect(await footprint()).toEqual(before);

    const saved = await send(SETTINGS_PATCH, 'PATCH', '/api/admin/settings', {
      cookies: asAdmin(),
      body: {
        legal_identity: { ...DEFAULT_SETTINGS.legal_identity, address: '1 rue\n75001 Paris' },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });

  it('refuses a control character in an order’s tracking number, changing nothing', async () => {
    const order = await makeOrder(t.db, {
      lines: [{ artworkId: null, type: 'print', unitPriceCents: 35_000 }],
    });
    const before = await footprint();
    const answer = await send(ORDER_PATCH, 'PATCH', `/api/admin/orders/${order.id}`, {
      params: { id: order.id },
      cookies: asAdmin(),
      body: { status: 'shipped', carrier: 'La Poste', trackingNumber: 'AB\u0000' },
    });
    expectRefused(answer, { status: 400, code: 'invalid_input', field: 'trackingNumber' });
    expect(await footprint()).toEqual(before);
    const { status } = await t.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(status).toBe('confirmed');
  });

  it('query strings: a bad audit filter is a 400, a NUL in a search falls back to the list', async () => {
    for (const query of [`entity=${'x'.repeat(41)}`, 'entity=artwork%00', 'id=12%00'])
      expectRefused(await send(AUDIT, 'GET', `/api/admin/audit?${query}`, { cookies: asAdmin() }), {
        status: 400,
        code: 'invalid_input',
      });
    const customers = await send(CUSTOMERS, 'GET', '/api/admin/customers?q=a%00b', {
      cookies: asAdmin(),
    });
    expect(customers.status, JSON.stringify(customers.body)).toBe(200);
    expectRefused(
      await send(CUSTOMER, 'GET', '/api/admin/customers/detail?email=a%00b%40example.test', {
        cookies: asAdmin(),
      }),
      { status: 400, code: 'invalid_input', field: 'email' },
    );
  });
});

describe('the safety net (api/http/errors.ts)', { tags: ['pg-driver'] }, () => {
  it('answers a data error PostgreSQL raised 400 invalid_input', async () => {
    // Each one is still logged (a gap in a schema), on purpose here.
    vi.mocked(console.error).mockImplementation(() => {});
    const failure = (query: RawBuilder<unknown>) =>
      query.execute(t.db).then(
        () => {
          throw new Error('expected PostgreSQL to refuse');
        },
        (error: unknown) => error,
      );
    for (const refused of [
      await failure(sql`select ${'2147483648'}::int4`), // 22003
      await failure(sql`select ${'douze'}::int4`), // 22P02
      await failure(sql`select ${'{"a":"\\u0000"}'}::jsonb`), // 22P05
    ]) {
      expect((refused as { code?: string }).code).toMatch(/^22/);
      const response = errorResponse(refused);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'invalid_input',
      );
    }
    // Anything else stays an internal error.
    const broken = await failure(sql`select * from no_such_table`);
    expect(errorResponse(broken).status).toBe(500);
  });
});
