// Structured data (schema.org JSON-LD) for the artist and the works.
import type { PublicArtwork } from '#api/catalog/index.ts';
import type { SiteSettings } from '#api/settings/index.ts';
import { variantUrl } from '#api/media/variants.ts';
import { parseDimensions } from '../domain/dimensions.ts';
import { localizedPath, t, workPath, type Locale } from '../i18n/index.ts';
import type { WorkGroup } from './groups.ts';
import { siteTitle } from '../schemas/settings.ts';

export function personJsonLd(settings: SiteSettings, locale: Locale, site: URL): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'Person',
    '@id': new URL('/about#artist', site).href,
    name: settings.artist_name,
    birthDate: '1974',
    birthPlace: { '@type': 'Place', name: 'Zagreb' },
    homeLocation: { '@type': 'Place', name: 'Lisboa, Portugal' },
    jobTitle: locale === 'fr' ? 'Artiste peintre' : 'Painter',
    url: new URL(localizedPath(locale, '/about'), site).href,
    email: settings.contact_email,
    sameAs: [settings.instagram_url],
  };
}

/** Schema.org's QuantitativeValue in centimetres. */
const centimetres = (value: number) => ({ '@type': 'QuantitativeValue', value, unitCode: 'CMT' });

/**
 * A work's page (issue 25): one VisualArtwork — artist, dimensions, medium, year, image — that is
 * also a Product, with an Offer for the original and one for its print, each with its live-at-build
 * availability (the page re-reads it; the cart re-checks it).
 */
export function workJsonLd(
  group: WorkGroup,
  settings: SiteSettings,
  locale: Locale,
  site: URL,
): object {
  const { lead, original, print } = group;
  const url = new URL(workPath(locale, group.key), site).href;
  const size = parseDimensions((original ?? lead).dimensions);
  const offer = (work: PublicArtwork) => ({
    '@type': 'Offer',
    name:
      work.type === 'original'
        ? t(locale, 'gallery.original')
        : `${t(locale, 'gallery.print')} — ${work.technique[locale]}, ${work.dimensions}`,
    sku: work.slug,
    price: (work.priceCents / 100).toFixed(2),
    priceCurrency: settings.currency,
    availability: (work.type === 'original' ? !work.isSold : work.stock > 0)
      ? 'https://schema.org/InStock'
      : 'https://schema.org/SoldOut',
    itemCondition: 'https://schema.org/NewCondition',
    url,
  });
  const offers = [original, print].filter((w) => w !== undefined).map(offer);
  return {
    '@context': 'https://schema.org',
    '@type': ['VisualArtwork', 'Product'],
    '@id': `${url}#work`,
    name: lead.title[locale],
    description: lead.description[locale],
    url,
    sku: group.key,
    ...(lead.image
      ? { image: new URL(variantUrl(lead.image.sha256, 1200, 'webp'), site).href }
      : {}),
    artform:
      lead.category === 'sculpture' ? 'Sculpture' : locale === 'fr' ? 'Peinture' : 'Painting',
    artMedium: (original ?? lead).technique[locale],
    ...(size
      ? {
          height: centimetres(size.heightCm),
          width: centimetres(size.widthCm),
          ...(size.depthCm !== null ? { depth: centimetres(size.depthCm) } : {}),
        }
      : {}),
    ...(lead.year ? { dateCreated: String(lead.year) } : {}),
    ...(print?.editionSize ? { artEdition: print.editionSize } : {}),
    creator: {
      '@type': 'Person',
      '@id': new URL('/about#artist', site).href,
      name: settings.artist_name,
    },
    brand: { '@type': 'Brand', name: siteTitle(settings, locale) },
    offers,
  };
}

/** The gallery (issue 25): the list of the works' own pages, in catalogue order. */
export function galleryJsonLd(groups: readonly WorkGroup[], locale: Locale, site: URL): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: groups.map((group, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: group.lead.title[locale],
      url: new URL(workPath(locale, group.key), site).href,
    })),
  };
}
