import { describe, expect, it } from 'vitest';
import type { PublicArtwork } from '#api/catalog/index.ts';
import { groupWorks } from './groups.ts';

let nextId = 1;
function work(overrides: Partial<PublicArtwork>): PublicArtwork {
  const id = overrides.id ?? nextId++;
  return {
    id,
    slug: `work-${id}`,
    type: 'original',
    originalId: null,
    title: { fr: `Œuvre ${id}`, en: `Work ${id}` },
    description: { fr: '', en: '' },
    technique: { fr: 'Huile sur toile', en: 'Oil on canvas' },
    dimensions: '100 x 80 cm',
    year: 2024,
    priceCents: 100_000,
    stock: 1,
    category: 'peinture',
    collection: 'moderna',
    isSold: false,
    editionSize: null,
    signature: { fr: '', en: '' },
    framed: null,
    shippingNote: { fr: '', en: '' },
    displayOrder: 0,
    image: null,
    images: [],
    ...overrides,
  };
}

describe('gallery groups', () => {
  it('puts a print with the original it names, whatever their titles', () => {
    const original = work({
      id: 10,
      slug: 'lumiere-du-tage-original',
      title: { fr: 'Lumière', en: 'Light' },
    });
    const print = work({
      id: 11,
      slug: 'lumiere-du-tage-print',
      type: 'print',
      originalId: 10,
      title: { fr: 'Lumière du Tage (renommée)', en: 'Tagus Light' },
    });
    const groups = groupWorks([original, print]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ key: 'lumiere-du-tage', original, print, lead: original });
  });

  it('never merges two works because they share a title', () => {
    const a = work({ slug: 'sans-titre-original', title: { fr: 'Sans titre', en: 'Untitled' } });
    const b = work({ slug: 'sans-titre-2-original', title: { fr: 'Sans titre', en: 'Untitled' } });
    expect(groupWorks([a, b]).map((g) => g.key)).toEqual(['sans-titre', 'sans-titre-2']);
  });

  it('keeps a print whose original is hidden, and the catalogue order', () => {
    const lone = work({ slug: 'marees-print', type: 'print', originalId: 999 });
    const first = work({ slug: 'aube-original' });
    const firstPrint = work({ slug: 'aube-print', type: 'print', originalId: first.id });
    const groups = groupWorks([lone, first, firstPrint]);
    expect(groups.map((g) => [g.key, g.original?.slug, g.print?.slug])).toEqual([
      ['marees', undefined, 'marees-print'],
      ['aube', 'aube-original', 'aube-print'],
    ]);
  });

  it('gives every group a distinct key', () => {
    const original = work({ slug: 'nuit-original' });
    const print = work({ slug: 'nuit-print', type: 'print' });
    expect(groupWorks([original, print]).map((g) => g.key)).toEqual(['nuit', 'nuit-print']);
  });
});
