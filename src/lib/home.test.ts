// The home page's hero and featured works (issue 27): the owner's choice first, the first works
// for sale only when nothing is chosen, and never the same work twice.
import { describe, expect, it } from 'vitest';
import type { PublicArtwork } from '#api/catalog/index.ts';
import { groupWorks } from './groups.ts';
import { homeChoice } from './home.ts';

const image = {
  sha256: 'a'.repeat(64),
  width: 10,
  height: 10,
  alt: { fr: '', en: '' },
  caption: { fr: '', en: '' },
};
const work = (id: number, over: Partial<PublicArtwork> = {}): PublicArtwork => ({
  id,
  slug: `w${id}-original`,
  type: 'original',
  originalId: null,
  title: { fr: `W${id}`, en: `W${id}` },
  description: { fr: '', en: '' },
  technique: { fr: '', en: '' },
  dimensions: '',
  year: null,
  priceCents: 100,
  stock: 1,
  category: 'peinture',
  collection: 'moderna',
  isSold: false,
  editionSize: null,
  signature: { fr: '', en: '' },
  framed: null,
  shippingNote: { fr: '', en: '' },
  displayOrder: id,
  image,
  images: [image],
  ...over,
});
const ids = (choice: ReturnType<typeof homeChoice>) => ({
  hero: choice.hero?.id,
  featured: choice.featured.map((g) => g.lead.id),
});

describe('homeChoice', () => {
  it('without a choice: the first work for sale, then the next three', () => {
    const works = [work(1, { isSold: true }), work(2), work(3), work(4), work(5), work(6)];
    expect(ids(homeChoice(groupWorks(works)))).toEqual({ hero: 2, featured: [3, 4, 5] });
  });

  it('the chosen hero and featured works, wherever they are in the gallery', () => {
    const works = [
      work(1),
      work(2),
      work(3, { highlight: 'featured' }),
      work(4, { highlight: 'hero' }),
    ];
    expect(ids(homeChoice(groupWorks(works)))).toEqual({ hero: 4, featured: [3, 1, 2] });
  });

  it('a single work for sale is both hero and featured, as before', () => {
    expect(ids(homeChoice(groupWorks([work(1)])))).toEqual({ hero: 1, featured: [1] });
  });
});
