// Build-time access to the catalogue collections, as the api/ domain objects.
import { getCollection, getEntry } from 'astro:content';
import type { PublicArtwork } from '../../api/catalog/index.ts';
import type { SiteSettings } from '../../api/settings/index.ts';

export async function getArtworks(): Promise<PublicArtwork[]> {
  const entries = await getCollection('artworks');
  return entries
    .map((entry) => entry.data)
    .sort((a, b) => a.position - b.position)
    .map(({ position: _position, ...artwork }) => artwork);
}

export async function getSiteSettings(): Promise<SiteSettings> {
  const entry = await getEntry('site', 'settings');
  if (!entry) throw new Error('Site settings are missing from the build snapshot');
  return entry.data;
}

/** Works of the same title merged into one card (storefront §2 Gallery). */
export interface WorkGroup {
  /** The title's slug: the shareable overlay URL is ?work=<key>. */
  key: string;
  /** The first work of the group gives image, dimensions and description. */
  lead: PublicArtwork;
  original: PublicArtwork | undefined;
  print: PublicArtwork | undefined;
}

export function groupByTitle(artworks: readonly PublicArtwork[]): WorkGroup[] {
  const groups = new Map<string, WorkGroup>();
  for (const work of artworks) {
    const id = work.title.fr.trim().toLowerCase();
    let group = groups.get(id);
    if (!group) {
      group = {
        key: work.slug.replace(/-(original|print)$/, ''),
        lead: work,
        original: undefined,
        print: undefined,
      };
      groups.set(id, group);
    }
    if (work.type === 'original') group.original ??= work;
    else group.print ??= work;
  }
  return [...groups.values()];
}
