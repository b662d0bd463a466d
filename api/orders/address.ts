// The one reader and formatter of an order's stored postal address (issue 27 item 1): the checkout
// stores `{ street, additionalInfo, postalCode, city, country }`, older orders have `postal_code`
// and `additional_info`, and some rows hold the JSON as text. Mails, invoices, the back office's
// detail and the packing slip all print the address through here, so they never disagree (four
// copies did: the confirmation mail of an older order lost its postal code).

export type AddressLocale = 'fr' | 'en';

export interface PostalAddress {
  street: string;
  additionalInfo: string;
  postalCode: string;
  city: string;
  /** ISO 3166 alpha-2 as the checkout stores it, or what an older row holds. */
  country: string;
}

const EMPTY: PostalAddress = {
  street: '',
  additionalInfo: '',
  postalCode: '',
  city: '',
  country: '',
};

/** The stored value (object, JSON text, null) as an address; unreadable parts are empty. */
export function parseAddress(value: unknown): PostalAddress {
  let data = value;
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value) as unknown;
    } catch {
      return { ...EMPTY, street: value.trim() };
    }
  }
  if (!data || typeof data !== 'object') return { ...EMPTY };
  const a = data as Record<string, unknown>;
  const text = (...keys: string[]) => {
    for (const key of keys) {
      const field = a[key];
      if (typeof field === 'string' && field.trim()) return field.trim();
    }
    return '';
  };
  return {
    street: text('street'),
    additionalInfo: text('additionalInfo', 'additional_info'),
    postalCode: text('postalCode', 'postal_code'),
    city: text('city'),
    country: text('country'),
  };
}

/** 'PT' → 'Portugal'; 'NL' → 'Pays-Bas' / 'Netherlands'; anything else as it was written. */
export function countryName(locale: AddressLocale, code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The address as printed on an envelope: street, complement, postal code and city, country name
 * in `locale`; empty lines left out.
 */
export function addressLines(value: unknown, locale: AddressLocale = 'fr'): string[] {
  const a = parseAddress(value);
  return [
    a.street,
    a.additionalInfo,
    [a.postalCode, a.city].filter(Boolean).join(' '),
    a.country ? countryName(locale, a.country) : '',
  ].filter(Boolean);
}
