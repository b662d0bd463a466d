import { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  currentRequestId,
  levelFrom,
  log,
  newRequestId,
  prettyLine,
  prettyWanted,
  runInRequest,
  scrubSecrets,
  serializeError,
  setLogSink,
  type LogSink,
} from './log.ts';

let lines: string[];
let previous: LogSink;
let level: string;

beforeEach(() => {
  lines = [];
  previous = setLogSink({ write: (line) => lines.push(line) });
  level = log.level;
  log.level = 'trace';
});

afterEach(() => {
  setLogSink(previous);
  log.level = level;
});

const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

// One in-memory PGlite for the file: starting one costs seconds.
let pglite: PGlite | undefined;
afterAll(() => pglite?.close());

/** A PostgreSQL error as PGlite throws it: with the query, its parameters and its options. */
async function pgliteError(sqlText: string, params: unknown[]): Promise<Error> {
  pglite ??= new PGlite();
  try {
    await pglite.query(sqlText, params);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected PGlite to refuse');
}

describe('settings', () => {
  it('LOG_LEVEL: info by default, any pino level, anything else falls back to info', () => {
    expect(levelFrom(undefined)).toEqual({ level: 'info' });
    expect(levelFrom(' ')).toEqual({ level: 'info' });
    expect(levelFrom('WARN')).toEqual({ level: 'warn' });
    expect(levelFrom('silent')).toEqual({ level: 'silent' });
    expect(levelFrom('loud')).toEqual({ level: 'info', unknown: 'loud' });
  });

  it('LOG_FORMAT: readable at a terminal, JSON elsewhere, either when asked', () => {
    expect(prettyWanted(undefined, true)).toBe(true);
    expect(prettyWanted(undefined, false)).toBe(false);
    expect(prettyWanted('json', true)).toBe(false);
    expect(prettyWanted('Pretty', false)).toBe(true);
  });
});

describe('errors', () => {
  it("keep message, code and stack, and drop a PGlite error's query and parameters", async () => {
    const error = await pgliteError('select * from nowhere where id = $1', ['cart-secret-1']);
    expect(error).toMatchObject({ params: ['cart-secret-1'] }); // what it carries
    const out = serializeError(error);
    expect(out).toMatchObject({
      type: 'error',
      message: 'relation "nowhere" does not exist',
      code: '42P01',
    });
    expect(out['stack']).toContain('relation "nowhere" does not exist');
    expect(Object.keys(out)).not.toContain('params');
    expect(Object.keys(out)).not.toContain('query');
    expect(Object.keys(out)).not.toContain('queryOptions');
    expect(JSON.stringify(out)).not.toContain('cart-secret-1');
  });

  it('drop the value a data exception quotes, from its message and its stack', async () => {
    const error = await pgliteError('select $1::int4', ['4111-secret']);
    expect(error.message).toContain('4111-secret');
    const out = serializeError(error);
    expect(out['code']).toBe('22P02');
    expect(out['message']).toBe('invalid input syntax for type integer: "…"');
    expect(JSON.stringify(out)).not.toContain('4111-secret');
  });

  it("drop a pg error's detail (the row's values) and follow causes", () => {
    const pg = Object.assign(
      new Error('duplicate key value violates unique constraint "users_email_key"'),
      {
        code: '23505',
        severity: 'ERROR',
        detail: 'Key (email)=(owner@example.com) already exists.',
        constraint: 'users_email_key',
        where: 'SQL statement',
      },
    );
    const out = serializeError(new Error('signup failed', { cause: pg }));
    expect(out['cause']).toMatchObject({ code: '23505', constraint: 'users_email_key' });
    expect(JSON.stringify(out)).not.toContain('owner@example.com');
    expect(serializeError('plain')).toEqual({ type: 'string', message: 'plain' });
  });
});

describe('the last scrub over each line', () => {
  it.each([
    ['Cookie: session=abc123; cart-session-id=def456', 'abc123', 'def456'],
    ['Cookie: __Host-session=abc123; __Host-cart-session-id=def456', 'abc123', 'def456'],
    ['Cookie: __Host-signup=abc123; signup=def456', 'abc123', 'def456'],
    ['Authorization: Bearer eyJhbGciOi.x.y', 'eyJhbGciOi'],
    ['password=hunter2 in a stack trace', 'hunter2'],
    ['{"msg":"body {\\"password\\":\\"hunter2\\"}"}', 'hunter2'],
    ['reset with token: 0123abcd', '0123abcd'],
    ['key sk_test_51Habc and sk_live_xyz, whsec_AbC+1=', '51Habc', 'xyz', 'AbC'],
    ['postgres://galerie:s3cret@db:5432/galerie', 's3cret'],
    ['paid with 4242 4242 4242 4242 or 4000000000000002', '4242 4242', '4000000000000002'],
  ])('%s', (text, ...secrets) => {
    const scrubbed = scrubSecrets(text);
    for (const secret of secrets) expect(scrubbed).not.toContain(secret);
  });

  it('leaves ordinary text alone', () => {
    const line =
      '{"level":"info","time":"2026-11-23T21:20:20.123Z","pid":4242,"msg":"Order GA-2026-0042: the password reset mail failed; invalid_token; id 4242424242424241"}';
    expect(scrubSecrets(line)).toBe(line);
  });
});

describe('the logger', () => {
  it('keeps ids whose digit groups look like a card number whole', () => {
    const reqId = 'cd78b63b-3526-4683-8927-81cab65aad4c';
    log.info({ reqId, order: 'GS-2026-01016', at: '1700000000000000' }, `request ${reqId}`);
    const [record] = records();
    expect(record).toMatchObject({ reqId, msg: `request ${reqId}` });
    log.info('paid with 4242 4242 4242 4242 and 4000-0000-0000-0002');
    expect(records()[1]!.msg).toBe('paid with [card] and [card]');
  });

  it('writes one JSON line per record, with the request id inside a request only', async () => {
    log.info('Galerie: ready at http://127.0.0.1:4321/');
    const reqId = newRequestId();
    await runInRequest(reqId, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentRequestId()).toBe(reqId);
      log.warn({ path: '/api/cart' }, 'later, after a timer');
    });
    expect(currentRequestId()).toBeUndefined();
    expect(records()).toEqual([
      expect.objectContaining({ level: 'info', msg: 'Galerie: ready at http://127.0.0.1:4321/' }),
      expect.objectContaining({ level: 'warn', reqId, path: '/api/cart' }),
    ]);
    expect(records()[0]).not.toHaveProperty('reqId');
    expect(lines.every((line) => line.endsWith('\n'))).toBe(true);
  });

  it('censors secret keys and serializes errors through the whitelist', async () => {
    const error = await pgliteError('select * from nowhere where email = $1', [
      'buyer@example.com',
    ]);
    log.error(
      {
        err: error,
        headers: { cookie: 'session=abc', authorization: 'Basic Zm9v' },
        input: { password: 'hunter2', email: 'buyer@example.com', card: { number: '4242' } },
      },
      'Request POST /api/auth/login failed',
    );
    const [record] = records();
    expect(record).toMatchObject({
      level: 'error',
      msg: 'Request POST /api/auth/login failed',
      err: { code: '42P01', message: 'relation "nowhere" does not exist' },
      headers: { cookie: '[redacted]', authorization: '[redacted]' },
      input: { password: '[redacted]', card: '[redacted]' },
    });
    expect(lines[0]).not.toMatch(/hunter2|session=abc|Zm9v|"4242"/);
    // Addresses are not secrets here: only the error's copy of the SQL parameter is gone.
    expect(lines[0]!.match(/buyer@example\.com/g)).toHaveLength(1);
  });
});

describe('a readable line for a person', () => {
  it('shows time, level, message, fields, the request and the stack', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 'error',
        time: '2026-11-23T21:20:20.123Z',
        pid: 1,
        hostname: 'h',
        part: 'build',
        reqId: '0123456789ab',
        path: '/x',
        msg: 'it broke',
        err: { type: 'Error', message: 'boom', code: 'E1', stack: 'Error: boom\n    at here' },
      }),
    );
    expect(line).toBe(
      '21:20:20 ERROR build │ it broke path=/x (request 01234567)\n    Error: boom [E1]\n        at here\n',
    );
    expect(prettyLine('not json\n')).toBe('not json\n');
  });
});
