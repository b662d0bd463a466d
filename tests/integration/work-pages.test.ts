// Issue 25 §1: every work has a page of its own in both languages. Checked on the real built
// server, for EVERY work group of the seeded catalogue: its title, description, canonical URL,
// hreflang pair and x-default, the `og:` tags a shared link shows (they name the work), the
// 1 200 × 630 preview image (fetched and measured), the VisualArtwork JSON-LD with its offers, the
// language switch that keeps the work, the sitemap entries, and the old `?work=` links' 301.
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPublicArtworks } from '#api/catalog/index.ts';
import { openDatabase } from '#api/db/index.ts';
import { getSettings, type SiteSettings } from '#api/settings/index.ts';
import { groupWorks, type WorkGroup } from '../../src/lib/groups.ts';
import { freshShop, startServer, type FreshShop, type RunningServer } from '../helpers/server.ts';

const LOCALES = ['fr', 'en'] as const;
type Locale = (typeof LOCALES)[number];
const pathOf = (locale: Locale, key: string) =>
  locale === 'fr' ? `/oeuvres/${key}` : `/en/works/${key}`;

const unescapeHtml = (value: string) =>
  value
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The head of a page as a reader of links sees it. */
function readHead(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const attr = (tag: string, name: string) =>
    unescapeHtml(new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? '');
  const tags = (name: string) =>
    [...head.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'g'))].map((m) => m[0]);
  const meta = (key: string) =>
    tags('meta')
      .filter((tag) => attr(tag, 'property') === key || attr(tag, 'name') === key)
      .map((tag) => attr(tag, 'content'));
  const links = (rel: string) => tags('link').filter((tag) => attr(tag, 'rel') === rel);
  return {
    title: unescapeHtml(/<title>([^<]*)<\/title>/.exec(head)?.[1] ?? ''),
    meta,
    canonical: links('canonical').map((tag) => attr(tag, 'href')),
    alternates: Object.fromEntries(
      links('alternate').map((tag) => [attr(tag, 'hreflang'), attr(tag, 'href')]),
    ),
    jsonLd: [...head.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    ),
  };
}

let shop: FreshShop;
let server: RunningServer;
let groups: WorkGroup[];
let settings: SiteSettings;

beforeAll(async () => {
  shop = await freshShop('work-pages');
  const handle = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pgdata') });
  groups = groupWorks(await listPublicArtworks(handle.db));
  settings = await getSettings(handle.db);
  await handle.close();
  server = await startServer(shop);
});

afterAll(async () => {
  await server?.stop();
  shop?.remove();
});

const get = (pathname: string) => fetch(`${server.base}${pathname}`, { redirect: 'manual' });
const onSite = (pathname: string) => new URL(pathname, shop.siteUrl).href;

describe('every work has its two pages', () => {
  it('the catalogue has works of every shape the pages must handle', () => {
    expect(groups.length).toBeGreaterThanOrEqual(13);
    expect(groups.some((g) => g.original && g.print)).toBe(true);
    expect(groups.some((g) => g.original && !g.print)).toBe(true);
    expect(groups.some((g) => g.original?.isSold)).toBe(true);
  });

  it('each page: title, description, canonical, hreflang pair, og: tags naming the work, JSON-LD', async () => {
    for (const group of groups) {
      for (const locale of LOCALES) {
        const own = pathOf(locale, group.key);
        const response = await get(own);
        expect(response.status, own).toBe(200);
        const html = await response.text();
        const page = readHead(html);
        const title = group.lead.title[locale];

        expect(page.title, own).toContain(title);
        expect(page.title, own).toContain(settings.site_title);
        const [description] = page.meta('description');
        expect(description, own).toContain(title);
        expect(description!.length, own).toBeLessThanOrEqual(160);
        expect(page.canonical, own).toEqual([onSite(own)]);
        expect(page.alternates, own).toEqual({
          fr: onSite(pathOf('fr', group.key)),
          en: onSite(pathOf('en', group.key)),
          'x-default': onSite(pathOf('fr', group.key)),
        });

        // What WhatsApp, Instagram or a mail client show for a shared link.
        expect(page.meta('og:title')[0], own).toContain(title);
        expect(page.meta('og:description')[0], own).toContain(title);
        expect(page.meta('og:url'), own).toEqual([onSite(own)]);
        const image = group.lead.image!;
        expect(page.meta('og:image'), own).toEqual([onSite(`/media/${image.sha256}/share.jpg`)]);
        expect(page.meta('og:image:width'), own).toEqual(['1200']);
        expect(page.meta('og:image:height'), own).toEqual(['630']);
        expect(page.meta('og:image:alt')[0], own).toContain(title);
        expect(page.meta('twitter:card'), own).toEqual(['summary_large_image']);

        // The work's structured data: artist, dimensions, medium, year, image, its offers.
        const work = page.jsonLd.find((data) => [data['@type']].flat().includes('VisualArtwork'));
        expect(work, own).toBeDefined();
        expect(work).toMatchObject({
          name: title,
          url: onSite(own),
          creator: { '@type': 'Person', name: settings.artist_name },
          artMedium: (group.original ?? group.lead).technique[locale],
          image: onSite(`/media/${image.sha256}/1200.webp`),
          height: { '@type': 'QuantitativeValue', unitCode: 'CMT' },
          width: { '@type': 'QuantitativeValue', unitCode: 'CMT' },
        });
        if (group.lead.year) expect(work!['dateCreated']).toBe(String(group.lead.year));
        const offers = work!['offers'] as Record<string, unknown>[];
        const variants = [group.original, group.print].filter((w) => w !== undefined);
        expect(
          offers.map((o) => o['sku']),
          own,
        ).toEqual(variants.map((w) => w.slug));
        for (const [index, variant] of variants.entries()) {
          const sellable = variant.type === 'original' ? !variant.isSold : variant.stock > 0;
          expect(offers[index], own).toMatchObject({
            '@type': 'Offer',
            price: (variant.priceCents / 100).toFixed(2),
            priceCurrency: settings.currency,
            availability: `https://schema.org/${sellable ? 'InStock' : 'SoldOut'}`,
          });
        }

        // The visible page: the title as its one h1, the artist, the way back, the other language.
        expect(html.match(/<h1\b/g)?.length, own).toBe(1);
        expect(html).toContain(settings.artist_name);
        const switchTo = /<a[^>]*href="([^"]*)"[^>]*data-lang-switch/.exec(html)?.[1];
        expect(switchTo, own).toBe(pathOf(locale === 'fr' ? 'en' : 'fr', group.key));
      }
    }
  });

  it('each preview image is a 1 200 × 630 JPEG made from the work', async () => {
    for (const group of groups) {
      const image = group.lead.image!;
      const response = await get(`/media/${image.sha256}/share.jpg`);
      expect(response.status, group.key).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const bytes = Buffer.from(await response.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect({ key: group.key, width: meta.width, height: meta.height }).toEqual({
        key: group.key,
        width: 1200,
        height: 630,
      });
      // The work itself, not an empty frame: the middle is not the paper colour.
      const { data } = await sharp(bytes)
        .extract({ left: 590, top: 305, width: 20, height: 20 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const paper = [0xfa, 0xf8, 0xf4];
      const differs = [...data].some((value, i) => Math.abs(value - paper[i % 3]!) > 8);
      expect(differs, group.key).toBe(true);
    }
  });

  it('an unknown image has no preview', async () => {
    expect((await get(`/media/${'0'.repeat(64)}/share.jpg`)).status).toBe(404);
  });

  it('a sold original keeps its page, marked sold, with no add-to-cart for it', async () => {
    const sold = groups.find((g) => g.original?.isSold)!;
    const html = await (await get(pathOf('fr', sold.key))).text();
    const block = /<div[^>]*data-type="original"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '';
    expect(block).toMatch(
      /<p[^>]*data-sold-notice(?![^>]*hidden)[^>]*>\s*Cette œuvre originale a été vendue/,
    );
    expect(block).toMatch(/<button[^>]*data-add-to-cart[^>]*hidden/);
  });

  it('the sitemap lists both pages of every work with their alternates', async () => {
    const xml = await (await get('/sitemap.xml')).text();
    for (const group of groups)
      for (const locale of LOCALES) {
        expect(xml).toContain(`<loc>${onSite(pathOf(locale, group.key))}</loc>`);
        expect(xml).toContain(`hreflang="${locale}" href="${onSite(pathOf(locale, group.key))}"`);
      }
  });

  it('the gallery links each card to the work page and lists the pages, not their JSON-LD', async () => {
    const html = await (await get('/en/gallery')).text();
    for (const group of groups) expect(html).toContain(`href="/en/works/${group.key}"`);
    const lists = readHead(html).jsonLd.filter((data) => data['@type'] === 'ItemList');
    expect(lists).toHaveLength(1);
    expect(readHead(html).jsonLd.some((d) => [d['@type']].flat().includes('VisualArtwork'))).toBe(
      false,
    );
  });
});

describe('old overlay links', () => {
  it('/gallery?work=<key> answers 301 to the work page, in each language', async () => {
    const [first] = groups;
    for (const [from, to] of [
      [`/gallery?work=${first!.key}`, `/oeuvres/${first!.key}`],
      [`/en/gallery?tab=prints&work=${first!.key}`, `/en/works/${first!.key}`],
      [`/oeuvres?work=${first!.key}`, `/gallery?work=${first!.key}`],
    ] as const) {
      const response = await get(from);
      expect(response.status, from).toBe(301);
      expect(response.headers.get('location'), from).toBe(to);
    }
  });

  it('an unknown key shows the gallery', async () => {
    const response = await get('/gallery?work=no-such-work');
    expect(response.status).toBe(200);
    expect(readHead(await response.text()).canonical).toEqual([onSite('/gallery')]);
  });
});
