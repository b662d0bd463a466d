import { describe, expect, it } from 'vitest';
import { aliasTarget } from './aliases.ts';

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
  ])('%s → %s', (from, to) => {
    expect(aliasTarget(from)).toBe(to);
  });

  it.each(['/', '/gallery', '/en/', '/oeuvres-x', '/fr/oeuvres', '/en/cart', '/panier'])(
    '%s is not an alias',
    (path) => {
      expect(aliasTarget(path)).toBeNull();
    },
  );
});
