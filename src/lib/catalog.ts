// Build-time access to the catalogue collections, as the api/ domain objects.
import { getCollection, getEntry } from 'astro:content';
import type { PublicArtwork } from '#api/catalog/index.ts';
import type { SiteSettings } from '#api/settings/index.ts';

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

export { groupWorks, type WorkGroup } from './groups.ts';
export { homeChoice } from './home.ts';
