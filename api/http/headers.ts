// The security headers every response of the one HTTP server carries (issue 14 §1 "Headers"), and
// the pieces of the Content Security Policy shared by Astro's pages (astro.config.mjs
// `security.csp`) and the few pages written by hand (the admin 403 page, the payment emulator).
//
// A page gets two policies, and whatever it loads or runs must pass both (CSP 3, "multiple
// policies"):
// - Astro's own, per page: a <meta> in prerendered pages, a header on on-demand ones. Its
//   `script-src` / `style-src` allow 'self' and the hash of each inline script and style that Astro
//   emits — never 'unsafe-inline'; PAGE_DIRECTIVES add the rest.
// - HEADER_POLICY, a header on every response: what a <meta> cannot carry (`frame-ancestors`,
//   ignored there by browsers) and what holds for any document whatever it is.
// A response that brings its own policy header (on-demand pages, the 403 page, the emulator's
// pages) replaces HEADER_POLICY — Node's writeHead wins over setHeader —, so each of those
// includes FRAMING itself: src/middleware.ts completes Astro's (withFraming), the hand-written
// pages use handWrittenPagePolicy.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

export type CspHash = `sha256-${string}`;

/**
 * How a policy names one inline script or style: the SHA-256 of the element's exact text, base64
 * (CSP 3 "hash-source"). Astro hashes what it emits itself; this is for inline code we write.
 */
export function cspHash(content: string): CspHash {
  return `sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}`;
}

/** No page may be framed by another site (clickjacking). Only a header can say so. */
export const FRAMING = "frame-ancestors 'none'";

/**
 * An on-demand page's policy, which is a header, completed with FRAMING. Astro writes it before
 * the page's components run, so neither they nor the config can add it (the config's directives
 * also go into prerendered pages' <meta>, where browsers refuse `frame-ancestors` with an error).
 */
export function withFraming(policy: string): string {
  if (/(^|;)\s*frame-ancestors\s/.test(policy)) return policy;
  return `${policy.trim().replace(/;?$/, ';')} ${FRAMING};`;
}

/**
 * Every page of the site, beside the `script-src` / `style-src` Astro writes: everything else
 * (images, fonts, fetch, frames…) from our own origin only — the shop loads nothing from elsewhere
 * and pays through a redirect to Stripe's hosted page —, no plug-ins, no <base> to re-point
 * relative URLs, forms posted to ourselves only.
 */
export const PAGE_DIRECTIVES = [
  "default-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
] as const;

/** The policy header of every response; it restricts nothing a page's own policy allows. */
export const HEADER_POLICY = [
  FRAMING,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/**
 * The whole policy of a page written by hand as one string of HTML: nothing loads or runs but its
 * own inline styles, listed by hash; it may post forms to ourselves.
 */
export function handWrittenPagePolicy(inline: { styles: readonly string[] }): string {
  return [
    "default-src 'none'",
    `style-src ${inline.styles.map((s) => `'${cspHash(s)}'`).join(' ')}`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    FRAMING,
  ].join('; ');
}

/**
 * HSTS: once a browser has seen the site over HTTPS, it never uses plain HTTP for it again (a
 * year, renewed by every visit). Only for a site whose public address is https:// — an http://
 * shop (a laptop, the tests) would lock itself out. Sub-domains are not included: they may belong
 * to other services of the owner that the shop cannot speak for.
 */
export const HSTS = 'max-age=31536000';

export interface SecurityHeadersConfig {
  /** PUBLIC_SITE_URL (api/config.ts): decides HSTS. */
  siteUrl: string;
}

/**
 * The headers every response carries but its policy, as a flat list of names and values (what
 * Node's `writeHead` takes): the built files' answers write them at once with their own.
 */
export function securityHeaderList(config: SecurityHeadersConfig): readonly string[] {
  return [
    'X-Content-Type-Options',
    'nosniff',
    'Referrer-Policy',
    'strict-origin-when-cross-origin',
    // For browsers that predate `frame-ancestors`; the CSP wins where both are understood.
    'X-Frame-Options',
    'DENY',
    ...(/^https:\/\//i.test(config.siteUrl) ? ['Strict-Transport-Security', HSTS] : []),
  ];
}

/** Sets the headers every response carries; anything answering later may add its own. */
export function securityHeaders(res: ServerResponse, config: SecurityHeadersConfig): void {
  const list = securityHeaderList(config);
  for (let i = 0; i < list.length; i += 2) res.setHeader(list[i] ?? '', list[i + 1] ?? '');
  res.setHeader('Content-Security-Policy', HEADER_POLICY);
}
