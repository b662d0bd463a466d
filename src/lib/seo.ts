// Structured data (schema.org JSON-LD) for the artist and the works.
import type { PublicArtwork } from '#api/catalog/index.ts';
import type { SiteSettings } from '#api/settings/index.ts';
import { localizedPath, type Locale } from '../i18n/index.ts';

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

export function artworkJsonLd(
  work: PublicArtwork,
  groupKey: string,
  settings: SiteSettings,
  locale: Locale,
  site: URL,
): object {
  const url = new URL(`${localizedPath(locale, '/gallery')}?work=${groupKey}`, site).href;
  const available = work.type === 'original' ? !work.isSold : work.stock > 0;
  return {
    '@context': 'https://schema.org',
    '@type': ['VisualArtwork', 'Product'],
    name: work.title[locale],
    description: work.description[locale],
    url,
    sku: work.slug,
    ...(work.image ? { image: new URL(`/media/${work.image.sha256}/1200.webp`, site).href } : {}),
    artform:
      work.category === 'sculpture' ? 'Sculpture' : locale === 'fr' ? 'Peinture' : 'Painting',
    artMedium: work.technique[locale],
    ...(work.year ? { dateCreated: String(work.year) } : {}),
    ...(work.type === 'print' && work.editionSize ? { artEdition: work.editionSize } : {}),
    creator: {
      '@type': 'Person',
      '@id': new URL('/about#artist', site).href,
      name: settings.artist_name,
    },
    offers: {
      '@type': 'Offer',
      price: (work.priceCents / 100).toFixed(2),
      priceCurrency: settings.currency,
      availability: available ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      url,
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
}
