// Card images: the 400-px AVIF variants the gallery offers in its <source type="image/avif">
// srcsets, fetched from /media/<sha256>/<width>.avif, and their median size.
import zlib from 'node:zlib';
import type { Budgets } from './budgets.ts';
import { type Check, kb, median, rawGet } from './util.ts';

export interface CardImages {
  status: 'ok' | 'missing' | 'n/a';
  note?: string;
  urls: number;
  fetched: { url: string; bytes: number }[];
  medianBytes: number | null;
  minBytes: number | null;
  maxBytes: number | null;
}

function attributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attrs[(m[1] ?? '').toLowerCase()] = (m[2] ?? m[3] ?? '').replaceAll('&amp;', '&');
  }
  return attrs;
}

/** URLs of the `width`-w candidates of every `<source type="image/avif" srcset>` in the HTML. */
export function avifCandidates(html: string, width: number): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<source\b[^>]*>/gi)) {
    const attrs = attributes(m[0]);
    if (attrs['type'] !== 'image/avif' || !attrs['srcset']) continue;
    for (const candidate of attrs['srcset'].split(',')) {
      const [url, descriptor] = candidate.trim().split(/\s+/);
      if (url && descriptor === `${width}w`) urls.add(url);
    }
  }
  return [...urls];
}

export async function measureCardImages(baseUrl: string, budgets: Budgets): Promise<CardImages> {
  const none = { urls: 0, fetched: [], medianBytes: null, minBytes: null, maxBytes: null };
  const { galleryPage, cardWidth } = budgets.images;
  const page = await rawGet(`${baseUrl}${galleryPage}`, { 'accept-encoding': 'gzip' });
  if (page.status === 404) return { ...none, status: 'missing', note: `${galleryPage} is missing` };
  const html = (
    page.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(page.body) : page.body
  ).toString();
  const urls = avifCandidates(html, cardWidth);
  if (!urls.length) {
    return { ...none, status: 'n/a', note: `no ${cardWidth}w AVIF candidate on ${galleryPage}` };
  }
  const fetched: CardImages['fetched'] = [];
  const problems = new Set<string>();
  for (const url of urls) {
    const absolute = new URL(url, baseUrl).href;
    if (!absolute.startsWith(`${baseUrl}/`)) {
      problems.add(`not on our server: ${url}`);
      continue;
    }
    const res = await rawGet(absolute, { accept: 'image/avif,image/webp,*/*' });
    const type = res.headers['content-type'] ?? '';
    if (res.status === 200 && type.startsWith('image/avif')) {
      fetched.push({ url, bytes: res.body.length });
    } else {
      problems.add(
        res.status === 200 ? `served as ${type || 'unknown type'}` : `HTTP ${res.status}`,
      );
    }
  }
  if (!fetched.length) {
    return {
      ...none,
      urls: urls.length,
      status: 'n/a',
      note: `${urls.length} URLs, none served as AVIF (${[...problems].join(', ')})`,
    };
  }
  const sizes = fetched.map((f) => f.bytes);
  return {
    status: 'ok',
    urls: urls.length,
    fetched,
    medianBytes: median(sizes),
    minBytes: Math.min(...sizes),
    maxBytes: Math.max(...sizes),
    ...(problems.size
      ? { note: `${urls.length - fetched.length} failed: ${[...problems].join(', ')}` }
      : {}),
  };
}

export function cardCheck(cards: CardImages, budgets: Budgets): Check {
  const { cardWidth, cardAvifMedianBytes } = budgets.images;
  const base = {
    section: 'images',
    item: `${cardWidth}-px card AVIF, median`,
    budget: `≤ ${kb(cardAvifMedianBytes)}`,
    value: cards.medianBytes,
  };
  if (cards.medianBytes === null) {
    return {
      ...base,
      figure: cards.status,
      status: cards.status === 'missing' ? 'missing' : 'n/a',
      ...(cards.note ? { note: cards.note } : {}),
    };
  }
  const range = `${cards.fetched.length} images, ${kb(cards.minBytes ?? 0)}–${kb(cards.maxBytes ?? 0)}`;
  return {
    ...base,
    figure: kb(cards.medianBytes),
    status: cards.medianBytes <= cardAvifMedianBytes ? 'pass' : 'fail',
    note: cards.note ? `${range}; ${cards.note}` : range,
  };
}
