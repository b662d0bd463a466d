import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeDatabase, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on a fresh clone with no variables at all', () => {
    expect(loadConfig({})).toMatchObject({
      databaseUrl: undefined,
      dataDir: path.resolve('.data'),
      host: 'localhost',
      port: 4321,
      siteUrl: 'http://localhost:4321',
      stripeSecretKey: undefined,
      visitCounting: true,
      trustProxy: { kind: 'none' },
    });
  });

  it('reads TRUST_PROXY as a number of proxies or their addresses, trusting nothing by default', () => {
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual({
      kind: 'addresses',
      addresses: ['10.0.0.0/8', '::1'],
    });
  });

  it('turns visit counting off with VISIT_COUNTING=off only', () => {
    expect(loadConfig({ VISIT_COUNTING: 'off' }).visitCounting).toBe(false);
    expect(loadConfig({ VISIT_COUNTING: ' OFF ' }).visitCounting).toBe(false);
    expect(loadConfig({ VISIT_COUNTING: 'on' }).visitCounting).toBe(true);
    expect(loadConfig({ VISIT_COUNTING: '' }).visitCounting).toBe(true);
  });

  it('treats empty variables as unset and trims the site URL', () => {
    expect(
      loadConfig({ DATABASE_URL: '', PUBLIC_SITE_URL: 'https://galerie.example/' }),
    ).toMatchObject({
      databaseUrl: undefined,
      siteUrl: 'https://galerie.example',
    });
  });

  it.each([
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ PUBLIC_SITE_URL: 'galerie' }, /PUBLIC_SITE_URL/],
    [{ VISIT_COUNTING: 'no' }, /VISIT_COUNTING must be on or off/],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be a number of proxies/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY must be/],
    [{ TRUST_PROXY: '1.2.3.4,evil' }, /^TRUST_PROXY must be/],
  ])('names the variable to fix: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never prints a database password', () => {
    expect(
      describeDatabase({ databaseUrl: 'postgres://u:secret@db:5432/galerie', dataDir: '/x' }),
    ).toBe('postgres://u:***@db:5432/galerie');
  });
});
