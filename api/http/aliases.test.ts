import { describe, expect, it } from 'vitest';
import { aliasTarget, workPageTarget } from './aliases.ts';

describe('aliasTarget', () => {
  it.each([
    ['/accueil', '/'],
    ['/atelier/', '/'],
    ['/oeuvres?work=seuil', '/gallery?work=seuil'],
    ['/artiste', '/about'],
    ['/demarche', '/about'],
    ['/correspondances', '/contact'],
    ['/en/accueil', '/en/'],
    ['/en/oeuvres?work=seuil&x=1', '/en/gallery?work=seuil&x=1'],
    ['/en/correspondances/', '/en/contact'],
    ['/en/panier', '/en/cart'],
    ['/en/commande?promo=1', '/en/checkout?promo=1'],
    ['/cart', '/panier'],
    ['/checkout', '/commande'],
    ['/en/oeuvres/seuil', '/en/works/seuil'],
    ['/works/seuil/', '/oeuvres/seuil'],
  ])('%s → %s', (from, to) => {
    expect(aliasTarget(from)).toBe(to);
  });

  it.each([
    '/',
    '/gallery',
    '/en/',
    '/oeuvres-x',
    '/fr/oeuvres',
    '/en/cart',
    '/panier',
    '/oeuvres/seuil',
    '/en/works/seuil',
    '/works',
  ])('%s is not an alias', (path) => {
    expect(aliasTarget(path)).toBeNull();
  });
});

describe('workPageTarget', () => {
  const pages = new Set(['/oeuvres/seuil', '/en/works/seuil', '/oeuvres/le-grand-large']);
  const hasPage = (path: string) => pages.has(path);

  it.each([
    ['/gallery?work=seuil', '/oeuvres/seuil'],
    ['/gallery/?work=le-grand-large', '/oeuvres/le-grand-large'],
    ['/en/gallery?tab=prints&work=seuil', '/en/works/seuil'],
  ])('%s → %s', (from, to) => {
    expect(workPageTarget(from, hasPage)).toBe(to);
  });

  it.each([
    '/gallery',
    '/gallery?tab=prints',
    '/gallery?work=unknown',
    '/gallery?work=',
    '/gallery?work=../admin',
    '/en/gallery?work=le-grand-large',
    '/about?work=seuil',
    '/oeuvres/seuil?work=seuil',
  ])('%s stays', (url) => {
    expect(workPageTarget(url, hasPage)).toBeNull();
  });

  it('never looks a page up for a request without a work in its query', () => {
    const asked: string[] = [];
    workPageTarget('/gallery?tab=prints', (path) => (asked.push(path), true));
    expect(asked).toEqual([]);
  });
});
