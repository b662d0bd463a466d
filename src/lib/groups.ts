// One gallery card per work: an original and the prints that name it (artworks.original_id), in
// catalogue order. Never by title or slug suffix: renaming a work keeps it whole (issue 10).
import type { PublicArtwork } from '#api/catalog/index.ts';

export interface WorkGroup {
  /** The shareable overlay key (?work=<key>): the original's slug without its `-original`
   * suffix (the print's for a print alone). Slugs never change once published, so neither does it. */
  key: string;
  /** The first work of the group in catalogue order gives image, dimensions and description. */
  lead: PublicArtwork;
  original: PublicArtwork | undefined;
  print: PublicArtwork | undefined;
}

const stem = (slug: string) => slug.replace(/-(original|print)$/, '');

export function groupWorks(artworks: readonly PublicArtwork[]): WorkGroup[] {
  const byOriginal = new Map<number, WorkGroup>();
  const groups: WorkGroup[] = [];
  const groupOf = (work: PublicArtwork): WorkGroup => {
    const anchor = work.type === 'original' ? work.id : work.originalId;
    const existing = anchor === null ? undefined : byOriginal.get(anchor);
    if (existing) return existing;
    const group: WorkGroup = { key: '', lead: work, original: undefined, print: undefined };
    groups.push(group);
    if (anchor !== null) byOriginal.set(anchor, group);
    return group;
  };
  for (const work of artworks) {
    const group = groupOf(work);
    if (work.type === 'original') group.original ??= work;
    else group.print ??= work;
  }
  const used = new Set<string>();
  for (const group of groups) {
    const named = group.original ?? group.print ?? group.lead;
    let key = stem(named.slug);
    if (used.has(key)) key = named.slug;
    used.add(key);
    group.key = key;
  }
  return groups;
}
