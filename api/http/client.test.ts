import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../admin/uploads.ts';
import {
  attachClient,
  attachedClient,
  clientResolver,
  normalizeAddress,
  parseTrustProxy,
  secureCookies,
  straightFromThisMachine,
  thisMachineResolver,
} from './client.ts';
import { BODY_LIMITS, bodyLimit } from './request-limits.ts';

function request(
  peer: string,
  headers: Record<string, string | string[]> = {},
  encrypted = false,
): IncomingMessage {
  return {
    socket: { remoteAddress: peer, ...(encrypted && { encrypted: true }) },
    headers,
  } as unknown as IncomingMessage;
}

const resolve = (trust: string, req: IncomingMessage) =>
  clientResolver(parseTrustProxy(trust))(req);

describe('clientResolver', () => {
  it('without TRUST_PROXY believes no header: the socket peer and protocol', () => {
    const req = request('::ffff:203.0.113.9', {
      'x-forwarded-for': '198.51.100.1',
      'x-forwarded-proto': 'https',
    });
    expect(resolve('', req)).toEqual({ address: '203.0.113.9', protocol: 'http' });
    expect(resolve('', request('203.0.113.9', {}, true)).protocol).toBe('https');
  });

  it('with a number of proxies takes the address that many hops from the right', () => {
    // The client wrote 6.6.6.6 itself; the proxy appended the address it saw.
    const req = request('10.0.0.2', {
      'x-forwarded-for': '6.6.6.6, 198.51.100.7',
      'x-forwarded-proto': 'https',
    });
    expect(resolve('1', req)).toEqual({ address: '198.51.100.7', protocol: 'https' });
    // Two proxies, each appending: a CDN saw the client, the local proxy saw the CDN.
    const two = request('10.0.0.2', {
      'x-forwarded-for': ['6.6.6.6, 198.51.100.7', '192.0.2.50'],
      'x-forwarded-proto': 'https, http',
    });
    expect(resolve('2', two)).toEqual({ address: '198.51.100.7', protocol: 'https' });
    // Fewer entries than proxies: the furthest address known.
    expect(resolve('3', request('10.0.0.2', { 'x-forwarded-for': '198.51.100.7' })).address).toBe(
      '198.51.100.7',
    );
  });

  it('with addresses walks left past trusted proxies only', () => {
    const trust = '10.0.0.0/8, 2001:db8::/32';
    const req = request('10.0.0.2', {
      'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.1.2.3',
      'x-forwarded-proto': 'https',
    });
    expect(resolve(trust, req)).toEqual({ address: '198.51.100.7', protocol: 'https' });
    // A peer that is no trusted proxy is the client, whatever it claims.
    const direct = request('198.51.100.9', {
      'x-forwarded-for': '6.6.6.6',
      'x-forwarded-proto': 'https',
    });
    expect(resolve(trust, direct)).toEqual({ address: '198.51.100.9', protocol: 'http' });
    const v6 = request('2001:db8::1', { 'x-forwarded-for': '[2001:DB8:FFFF::9]:443' });
    expect(resolve('2001:db8::1', v6).address).toBe('2001:db8:ffff::9');
  });

  it('stops at a forwarded value that is no address, and ignores an unknown protocol', () => {
    const req = request('10.0.0.2', {
      'x-forwarded-for': '198.51.100.7, garbage',
      'x-forwarded-proto': 'gopher',
    });
    expect(resolve('2', req)).toEqual({ address: '10.0.0.2', protocol: 'http' });
  });
});

describe('parseTrustProxy and normalizeAddress', () => {
  it('reads hops, addresses and CIDRs; refuses anything else', () => {
    expect(parseTrustProxy(' 1 ')).toEqual({ kind: 'hops', hops: 1 });
    expect(parseTrustProxy('0')).toEqual({ kind: 'none' });
    for (const bad of ['yes', '1.2.3.4/33', '::1/129', 'a,b', '999', '10.0.0.0/8/1'])
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY must be/);
  });

  it('accepts what sockets and proxies write', () => {
    expect(normalizeAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeAddress('192.0.2.1:5678')).toBe('192.0.2.1');
    expect(normalizeAddress('[::1]:80')).toBe('::1');
    expect(normalizeAddress('unknown')).toBeNull();
  });
});

describe('the client attached to a request', () => {
  it('is what the HTTP layer resolved, else the socket peer', () => {
    const req = request('10.0.0.2', { 'x-forwarded-for': '198.51.100.7' });
    expect(attachedClient(req).address).toBe('10.0.0.2');
    attachClient(req, { address: '198.51.100.7', protocol: 'https' });
    expect(attachedClient(req)).toEqual({ address: '198.51.100.7', protocol: 'https' });
  });
});

describe('secureCookies', () => {
  it('follows PUBLIC_SITE_URL and the trusted protocol', () => {
    expect(secureCookies('https://galerie.example', { address: '', protocol: 'http' })).toBe(true);
    expect(secureCookies('http://localhost:4321', { address: '', protocol: 'https' })).toBe(true);
    expect(secureCookies('http://localhost:4321', { address: '', protocol: 'http' })).toBe(false);
  });
});

describe('bodyLimit', () => {
  it('gives uploads their limit, webhooks and admin documents theirs, the rest 64 KiB', () => {
    expect(bodyLimit('/api/admin/uploads')).toBe(MAX_UPLOAD_BYTES);
    expect(bodyLimit('/api/admin/artworks/order')).toBe(BODY_LIMITS.admin);
    expect(bodyLimit('/api/stripe/webhook')).toBe(BODY_LIMITS.payments);
    expect(bodyLimit('/login')).toBe(64 * 1024);
    expect(bodyLimit('/account')).toBe(64 * 1024);
  });
});

describe('a request from this machine (the setup link, docs/decisions/048)', () => {
  const local = (trust: string, req: IncomingMessage) =>
    thisMachineResolver(parseTrustProxy(trust))(req);

  it('is a loopback socket peer with no proxy header, read from the socket only', () => {
    for (const peer of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])
      expect(local('', request(peer)), peer).toBe(true);
    for (const peer of ['203.0.113.7', '10.0.0.2', '::ffff:192.0.2.1', '2001:db8::1', ''])
      expect(local('', request(peer)), peer).toBe(false);
    // A header naming loopback never makes a remote peer local.
    expect(local('', request('203.0.113.7', { 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
  });

  it('is never a request a proxy passed on: any forwarding header, or a trusted proxy peer', () => {
    for (const name of [
      'forwarded',
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
      'x-real-ip',
      'via',
    ]) {
      const req = request('127.0.0.1', { [name]: '127.0.0.1' });
      expect(straightFromThisMachine(req), name).toBe(false);
      expect(local('', req), name).toBe(false);
    }
    // A proxy on this machine connects from loopback for every visitor, headers or not.
    expect(local('127.0.0.1', request('127.0.0.1'))).toBe(false);
    expect(local('1', request('127.0.0.1'))).toBe(false);
    expect(local('10.0.0.0/8', request('127.0.0.1'))).toBe(true);
  });
});
