// sitemap.xml: every public page in both languages, each with its hreflang alternates, and every
// work's own page (issue 25).
import type { APIRoute } from 'astro';
import { LOCALES, localizedPath } from '../i18n/index.ts';
import { getArtworks, groupWorks } from '../lib/catalog.ts';

const PUBLIC_PAGES = ['/', '/gallery', '/about', '/contact', '/privacy', '/terms'];

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = async ({ site }) => {
  const base = site ?? new URL('http://localhost:4321');
  const url = (locale: (typeof LOCALES)[number], path: string) =>
    escape(new URL(localizedPath(locale, path), base).href);
  const works = groupWorks(await getArtworks()).map((group) => `/oeuvres/${group.key}`);
  const entries = [...PUBLIC_PAGES, ...works].flatMap((path) =>
    LOCALES.map(
      (locale) => `  <url>
    <loc>${url(locale, path)}</loc>
${LOCALES.map((alt) => `    <xhtml:link rel="alternate" hreflang="${alt}" href="${url(alt, path)}"/>`).join('\n')}
    <xhtml:link rel="alternate" hreflang="x-default" href="${url('fr', path)}"/>
  </url>`,
    ),
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${entries.join('\n')}
</urlset>
`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
