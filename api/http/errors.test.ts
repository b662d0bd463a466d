import { describe, expect, it, vi } from 'vitest';
import {
  AppError,
  checkSameOrigin,
  errorResponse,
  ERRORS,
  readForm,
  readJson,
  type ErrorCode,
} from './errors.ts';

const URL_ = 'http://localhost:4321/api/contact';

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request(URL_, { method: 'POST', body, headers });

/** A body sent in chunks without Content-Length, as a chunked upload arrives. */
const streamed = (chunks: string[], headers: Record<string, string>) =>
  new Request(URL_, {
    method: 'POST',
    headers,
    body: new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);

async function codeOf(promise: Promise<unknown>): Promise<ErrorCode | 'no error'> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

function codeOfSync(run: () => void): ErrorCode | 'no error' {
  try {
    run();
    return 'no error';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('error codes', () => {
  it('map once to a 4xx for bad input and a 5xx only for our own failures', () => {
    for (const [code, { status }] of Object.entries(ERRORS)) {
      if (
        [
          'internal',
          'delivery_failed',
          'payment_failed',
          'payment_not_configured',
          'publish_unavailable',
          // The database out of reach (a restart, a failover): ours, and temporary.
          'database_unavailable',
        ].includes(code)
      )
        expect(status).toBeGreaterThanOrEqual(500);
      else expect(status).toBeLessThan(500);
    }
    expect(new AppError('rate_limited').status).toBe(429);
    expect(new AppError('payload_too_large').status).toBe(413);
  });
});

describe('errorResponse', () => {
  it('answers an AppError with its status and { error: { code, message, fields } }', async () => {
    const response = errorResponse(
      new AppError('invalid_input', { fields: { email: 'contact.error.email' } }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      error: {
        code: 'invalid_input',
        message: ERRORS.invalid_input.message,
        fields: { email: 'contact.error.email' },
      },
    });
  });

  it('leaves out empty fields and adds Retry-After for rate_limited', async () => {
    const response = errorResponse(
      new AppError('rate_limited', { retryAfterSeconds: 12.2, fields: {} }),
    );
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('13');
    expect(await response.json()).toEqual({
      error: { code: 'rate_limited', message: ERRORS.rate_limited.message },
    });
    expect(errorResponse(new AppError('not_found')).headers.get('retry-after')).toBeNull();
  });

  it('hides unexpected errors behind a logged 500 internal', async () => {
    // logged on purpose: replace the console.error guard's spy for this test
    const logged = vi.mocked(console.error).mockImplementation(() => {});
    const response = errorResponse(new Error('password=hunter2 in a stack trace'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: 'Internal error.' } });
    expect(text).not.toContain('hunter2');
    expect(logged).toHaveBeenCalledTimes(1);
  });
});

describe('readJson', () => {
  it('parses a JSON body, with or without a charset, and +json types', async () => {
    expect(await readJson(post('{"a":1}', { 'content-type': 'application/json' }))).toEqual({
      a: 1,
    });
    expect(
      await readJson(post('[1]', { 'content-type': 'Application/JSON; charset=utf-8' })),
    ).toEqual([1]);
    expect(await readJson(post('"é"', { 'content-type': 'application/merge-patch+json' }))).toBe(
      'é',
    );
  });

  it('refuses other content types with 415', async () => {
    expect(await codeOf(readJson(post('{}', { 'content-type': 'text/plain' })))).toBe(
      'unsupported_media_type',
    );
    expect(
      await codeOf(readJson(post('a=1', { 'content-type': 'application/x-www-form-urlencoded' }))),
    ).toBe('unsupported_media_type');
    expect(await codeOf(readJson(post('{}')))).toBe('unsupported_media_type');
    expect(new AppError('unsupported_media_type').status).toBe(415);
  });

  it('refuses bodies over the limit with 413, declared or streamed', async () => {
    const json = { 'content-type': 'application/json' };
    const big = JSON.stringify({ message: 'x'.repeat(100) });
    expect(await codeOf(readJson(post(big, json), 50))).toBe('payload_too_large');
    expect(await codeOf(readJson(streamed([big.slice(0, 60), big.slice(60)], json), 50))).toBe(
      'payload_too_large',
    );
    expect(await codeOf(readJson(streamed([big], json), 16_384))).toBe('no error');
    // the limit counts bytes, not characters
    expect(await codeOf(readJson(post(`"${'é'.repeat(20)}"`, json), 30))).toBe('payload_too_large');
  });

  it('refuses malformed JSON, an empty body and invalid UTF-8 with 400 invalid_json', async () => {
    const json = { 'content-type': 'application/json' };
    expect(await codeOf(readJson(post('{"a":', json)))).toBe('invalid_json');
    expect(await codeOf(readJson(post('', json)))).toBe('invalid_json');
    expect(await codeOf(readJson(post(new Uint8Array([0x22, 0xff, 0x22]), json)))).toBe(
      'invalid_json',
    );
    expect(new AppError('invalid_json').status).toBe(400);
  });
});

describe('readForm', () => {
  it('reads an urlencoded form and refuses anything else', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(await readForm(post('name=Ana+S&email=a%40b.pt', form))).toEqual({
      name: 'Ana S',
      email: 'a@b.pt',
    });
    expect(await codeOf(readForm(post('x'.repeat(100), form), 50))).toBe('payload_too_large');
    expect(await codeOf(readForm(post('{}', { 'content-type': 'application/json' })))).toBe(
      'unsupported_media_type',
    );
  });
});

describe('checkSameOrigin', () => {
  const SITE = 'http://localhost:4321';
  const request = (method: string, headers: Record<string, string>, url = URL_) =>
    new Request(url, { method, headers });
  const check = (req: Request, siteUrl = SITE) => codeOfSync(() => checkSameOrigin(req, siteUrl));

  it('lets our own origin through', () => {
    expect(check(request('POST', { origin: 'http://localhost:4321' }))).toBe('no error');
    expect(check(request('POST', { 'sec-fetch-site': 'same-origin' }))).toBe('no error');
    // A site on localhost is the same one on the loopback addresses.
    expect(check(request('POST', { origin: 'http://127.0.0.1:4321' }))).toBe('no error');
    expect(check(request('POST', { origin: 'http://[::1]:4321' }))).toBe('no error');
  });

  it('accepts only the public site origin, whatever Host the request names', () => {
    const behindProxy = request('POST', { origin: 'https://galerie.example' });
    expect(check(behindProxy)).toBe('forbidden_origin');
    expect(check(behindProxy, 'https://galerie.example/')).toBe('no error');
    // `Host: evil.example` made the request's own URL http://evil.example (issue 14).
    const spoofed = request(
      'POST',
      { origin: 'http://evil.example' },
      'http://evil.example/api/cart',
    );
    expect(check(spoofed)).toBe('forbidden_origin');
    expect(check(spoofed, 'https://galerie.example')).toBe('forbidden_origin');
    expect(check(request('POST', { origin: 'http://127.0.0.1' }), 'https://galerie.example')).toBe(
      'forbidden_origin',
    );
  });

  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['another port', { origin: 'http://localhost:4322' }],
    ['an opaque origin', { origin: 'null' }],
    ['a cross-site fetch without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site fetch without Origin', { 'sec-fetch-site': 'same-site' }],
    ['no header at all', {}],
    // Origin wins over Sec-Fetch-Site when both are present
    [
      'a foreign Origin with same-origin fetch metadata',
      { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
    ],
  ])('refuses %s with 403 forbidden_origin', (_label, headers) => {
    expect(check(request('POST', headers))).toBe('forbidden_origin');
    expect(new AppError('forbidden_origin').status).toBe(403);
  });

  it('does not check safe methods', () => {
    expect(check(request('GET', { origin: 'https://evil.example' }))).toBe('no error');
  });
});
