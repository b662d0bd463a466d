// The works' own pages (issue 25): one per work group, in both languages, from the catalogue
// snapshot the build reads (src/content.config.ts). Server-only: the pages' frontmatter uses it.
import { createHash } from 'node:crypto';
import { t, type Locale } from '../i18n/index.ts';
import { getArtworks, getSiteSettings, groupWorks, type WorkGroup } from './catalog.ts';
import type { SiteSettings } from '#api/settings/index.ts';

/** getStaticPaths for /oeuvres/[key] and /en/works/[key]. */
export async function workStaticPaths(): Promise<
  { params: { key: string }; props: { group: WorkGroup }; cacheKey: string }[]
> {
  const settings = JSON.stringify(await getSiteSettings());
  return groupWorks(await getArtworks()).map((group) => ({
    params: { key: group.key },
    props: { group },
    // What the page shows besides its code (which Astro hashes itself): the work group and the
    // settings. A page whose key is unchanged is copied from the last build (incremental builds,
    // docs/decisions/053); a test fails when the page starts reading anything else.
    cacheKey: createHash('sha256').update(JSON.stringify(group)).update(settings).digest('hex'),
  }));
}

const DESCRIPTION_LENGTH = 160;

/** The page's meta description: what the work is, then its text, cut at a word near 160 characters. */
export function workDescription(group: WorkGroup, settings: SiteSettings, locale: Locale): string {
  const { lead, original } = group;
  const work = original ?? lead;
  const text = t(locale, 'work.metaDescription', {
    title: lead.title[locale],
    year: lead.year ?? '',
    artist: settings.artist_name,
    technique: work.technique[locale],
    dimensions: work.dimensions,
    description: lead.description[locale],
  }).replace(' ()', '');
  if (text.length <= DESCRIPTION_LENGTH) return text;
  const cut = text.slice(0, DESCRIPTION_LENGTH - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[\s,.;:]+$/, '')}…`;
}
