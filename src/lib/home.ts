// What the home page puts forward (issue 27): the hero and three featured works are the owner's
// choice in the back office ('Mettre en avant', artworks.highlight), never a work's place in the
// gallery, so adding a work does not change the home page. Without a choice (a new shop), the
// first works for sale in gallery order fill in, as the page did before; a new work goes last in
// that order, so it does not take the hero either.
import type { PublicArtwork } from '#api/catalog/index.ts';
import type { WorkGroup } from './groups.ts';

const FEATURED = 3;

const members = (g: WorkGroup) => [g.original, g.print].filter((w): w is PublicArtwork => !!w);
const marked = (g: WorkGroup, highlight: 'hero' | 'featured') =>
  members(g).find((w) => w.highlight === highlight && w.image);

export function homeChoice(groups: readonly WorkGroup[]): {
  hero: PublicArtwork | undefined;
  featured: WorkGroup[];
} {
  const forSale = groups.filter((g) => g.original && !g.original.isSold && g.lead.image);
  const chosenHero = groups.map((g) => marked(g, 'hero')).find(Boolean);
  const heroGroup = chosenHero
    ? groups.find((g) => members(g).includes(chosenHero))
    : (forSale[0] ?? groups[0]);
  const hero = chosenHero ?? heroGroup?.lead;
  // The hero's group is not featured again, so its image is not fetched and decoded twice.
  const others = (list: readonly WorkGroup[]) => list.filter((g) => g !== heroGroup);
  const chosen = others(groups.filter((g) => marked(g, 'featured')));
  const fill = others(forSale).filter((g) => !chosen.includes(g));
  const featured = [...chosen, ...fill].slice(0, FEATURED);
  return { hero, featured: featured.length > 0 ? featured : forSale.slice(0, FEATURED) };
}
