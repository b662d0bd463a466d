// The carriers the back office offers when an order ships (issue 26, docs/decisions/047), and
// the public tracking page of a parcel at each: the shipping mail links it. Pure, shared by the
// ship dialog's suggestions and the mail. A carrier typed by hand that is none of these still
// ships: the mail then gives its name and the number, without a link.

export interface Carrier {
  /** As the owner picks it and the buyer reads it. */
  name: string;
  /** Lowercase words a typed name may start with ('dhl express' is DHL). */
  aliases: readonly string[];
  /** The tracking page of one parcel. */
  url: (trackingNumber: string) => string;
}

const q = encodeURIComponent;

export const CARRIERS: readonly Carrier[] = [
  {
    name: 'Colissimo',
    aliases: ['colissimo', 'la poste', 'laposte'],
    url: (n) => `https://www.laposte.fr/outils/suivre-vos-envois?code=${q(n)}`,
  },
  {
    name: 'Chronopost',
    aliases: ['chronopost'],
    url: (n) => `https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=${q(n)}`,
  },
  {
    name: 'DHL',
    aliases: ['dhl'],
    url: (n) => `https://www.dhl.com/global-en/home/tracking.html?tracking-id=${q(n)}`,
  },
  {
    name: 'CTT',
    aliases: ['ctt'],
    url: (n) =>
      `https://www.ctt.pt/feapl_2/app/open/objectSearch/objectSearch.jspx?objects=${q(n)}`,
  },
  {
    name: 'UPS',
    aliases: ['ups'],
    url: (n) => `https://www.ups.com/track?tracknum=${q(n)}`,
  },
  {
    name: 'FedEx',
    aliases: ['fedex', 'fed ex'],
    url: (n) => `https://www.fedex.com/fedextrack/?trknbr=${q(n)}`,
  },
];

/** The carrier a typed name means ('colissimo', ' DHL Express '), or null. */
export function findCarrier(typed: string | null | undefined): Carrier | null {
  const name = (typed ?? '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
  if (!name) return null;
  return (
    CARRIERS.find((carrier) =>
      carrier.aliases.some((alias) => name === alias || name.startsWith(`${alias} `)),
    ) ?? null
  );
}

/** The parcel's tracking page, when both the carrier is known and a number was given. */
export function trackingUrl(
  carrier: string | null | undefined,
  trackingNumber: string | null | undefined,
): string | null {
  const number = (trackingNumber ?? '').replace(/\s+/g, '');
  const known = findCarrier(carrier);
  return known && number ? known.url(number) : null;
}
