import http, { type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  cspHash,
  FRAMING,
  HEADER_POLICY,
  handWrittenPagePolicy,
  HSTS,
  PAGE_DIRECTIVES,
  securityHeaders,
  withFraming,
} from './headers.ts';

const response = () =>
  new http.ServerResponse({
    method: 'GET',
    httpVersionMajor: 1,
    httpVersionMinor: 1,
  } as IncomingMessage);

/** A policy as a map of directive → sources. */
const directives = (policy: string) =>
  new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );

describe('cspHash', () => {
  it('is the base64 SHA-256 of the exact text, as browsers compute it', () => {
    // Computed independently (Python hashlib + base64).
    expect(cspHash('alert(1)')).toBe('sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=');
    expect(cspHash(' alert(1)')).not.toBe(cspHash('alert(1)'));
  });
});

describe('securityHeaders', () => {
  it('sets nosniff, the referrer policy, framing protection and the base policy', () => {
    const res = response();
    securityHeaders(res, { siteUrl: 'http://localhost:4321' });
    expect(res.getHeader('x-content-type-options')).toBe('nosniff');
    expect(res.getHeader('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.getHeader('x-frame-options')).toBe('DENY');
    expect(
      directives(String(res.getHeader('content-security-policy'))).get('frame-ancestors'),
    ).toEqual(["'none'"]);
  });

  it('announces HSTS only for a site whose public address is https://', () => {
    const https = response();
    securityHeaders(https, { siteUrl: 'https://galerie.example' });
    expect(https.getHeader('strict-transport-security')).toBe(HSTS);
    expect(HSTS).toMatch(/^max-age=\d{8,}/);
    for (const siteUrl of ['http://localhost:4321', 'http://galerie.example', '']) {
      const res = response();
      securityHeaders(res, { siteUrl });
      expect(res.hasHeader('strict-transport-security'), siteUrl).toBe(false);
    }
  });
});

describe('the policies', () => {
  it('the header policy never restricts scripts or styles, which each page allows by hash', () => {
    // A resource must pass every policy: a script-src here would block what a page's hashes allow.
    const header = directives(HEADER_POLICY);
    for (const name of header.keys()) expect(name).not.toMatch(/^(default|script|style)-src/);
    expect(header.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('pages allow nothing inline by default and are not framed when the policy is a header', () => {
    expect(PAGE_DIRECTIVES.join(';')).not.toContain('unsafe');
    expect(directives(PAGE_DIRECTIVES.join(';')).get('default-src')).toEqual(["'self'"]);
    // frame-ancestors is ignored (with a console error) in a <meta>: never among the page's own.
    expect(PAGE_DIRECTIVES.join(';')).not.toContain('frame-ancestors');
    expect(FRAMING).toBe("frame-ancestors 'none'");
  });

  it('an on-demand page’s policy header gains framing protection, once', () => {
    // As Astro writes it: directives joined by ';', a trailing ';'.
    const astro =
      "default-src 'self';object-src 'none'; script-src 'self' 'sha256-abc='; style-src 'self';";
    const framed = withFraming(astro);
    expect(directives(framed).get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives(framed).get('script-src')).toEqual(["'self'", "'sha256-abc='"]);
    expect(withFraming(framed)).toBe(framed);
    expect(directives(withFraming("script-src 'self'")).get('script-src')).toEqual(["'self'"]);
  });

  it('a page written by hand runs nothing and allows its inline styles by hash only', () => {
    const style = 'body{margin:0}';
    const policy = directives(handWrittenPagePolicy({ styles: [style] }));
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('style-src')).toEqual([`'${cspHash(style)}'`]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.has('script-src')).toBe(false);
  });
});
