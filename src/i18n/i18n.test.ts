import { describe, expect, it } from 'vitest';
import en from './en.json';
import fr from './fr.json';
import {
  formatPrice,
  localeFromPath,
  localizedPath,
  switchLocalePath,
  workPath,
  t,
  unlocalizedPath,
} from './index.ts';

describe('translations', () => {
  it('fr.json and en.json have the same keys, none empty', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(fr).sort());
    for (const value of [...Object.values(fr), ...Object.values(en)])
      expect(value.trim()).not.toBe('');
  });

  it('fills placeholders', () => {
    expect(t('fr', 'home.worksCount', { count: 25 })).toBe(
      '25 œuvres au catalogue, originales et tirages',
    );
    expect(t('en', 'home.worksCount', { count: 25 })).toBe(
      '25 works in the catalogue, originals and prints',
    );
  });
});

describe('localized paths', () => {
  it.each([
    ['fr', '/', '/'],
    ['en', '/', '/en/'],
    ['fr', '/gallery', '/gallery'],
    ['en', '/gallery', '/en/gallery'],
    ['en', 'about', '/en/about'],
    ['fr', '/panier', '/panier'],
    ['en', '/panier', '/en/cart'],
    ['en', '/commande', '/en/checkout'],
    ['en', '/commande?x=1', '/en/checkout?x=1'],
  ] as const)('%s %s → %s', (locale, path, expected) => {
    expect(localizedPath(locale, path)).toBe(expected);
  });

  it('finds the locale and the page of a path', () => {
    expect(localeFromPath('/en/gallery')).toBe('en');
    expect(localeFromPath('/english')).toBe('fr');
    expect(unlocalizedPath('/en/gallery')).toBe('/gallery');
    expect(unlocalizedPath('/en/')).toBe('/');
    expect(unlocalizedPath('/en')).toBe('/');
    expect(unlocalizedPath('/en/cart')).toBe('/panier');
    expect(unlocalizedPath('/en/checkout')).toBe('/commande');
  });

  it('switches language on the same page, keeping query and hash', () => {
    expect(switchLocalePath(new URL('http://x/gallery?tab=prints#seuil'), 'en')).toBe(
      '/en/gallery?tab=prints#seuil',
    );
    expect(switchLocalePath(new URL('http://x/en/gallery'), 'fr')).toBe('/gallery');
    expect(switchLocalePath(new URL('http://x/en/'), 'fr')).toBe('/');
    expect(switchLocalePath(new URL('http://x/panier'), 'en')).toBe('/en/cart');
    expect(switchLocalePath(new URL('http://x/en/checkout'), 'fr')).toBe('/commande');
  });

  it('gives a work’s page its folder in each language (issue 25)', () => {
    expect(workPath('fr', 'le-grand-large')).toBe('/oeuvres/le-grand-large');
    expect(workPath('en', 'le-grand-large')).toBe('/en/works/le-grand-large');
    expect(unlocalizedPath('/en/works/seuil')).toBe('/oeuvres/seuil');
    expect(switchLocalePath(new URL('http://x/oeuvres/seuil'), 'en')).toBe('/en/works/seuil');
    expect(switchLocalePath(new URL('http://x/en/works/seuil#zoom'), 'fr')).toBe(
      '/oeuvres/seuil#zoom',
    );
    // The folder alone is no work: /oeuvres stays the gallery's alias.
    expect(localizedPath('en', '/oeuvres')).toBe('/en/oeuvres');
    expect(unlocalizedPath('/en/works')).toBe('/works');
  });
});

describe('prices', () => {
  it('formats euros the French and the English way', () => {
    expect(formatPrice('fr', 35000, 'EUR').replace(/\s/g, ' ')).toBe('350 €');
    expect(formatPrice('en', 3400000, 'EUR')).toBe('€34,000');
    expect(formatPrice('fr', 1999, 'EUR').replace(/\s/g, ' ')).toBe('19,99 €');
    // The site's currency setting, whatever it is.
    expect(formatPrice('en', 35000, 'GBP')).toBe('£350');
    expect(formatPrice('fr', 1999, 'USD').replace(/\s/g, ' ')).toBe('19,99 $US');
  });
});
