// The plain data the islands receive as props and from the cart endpoints: the shapes of
// docs/commerce-api.md, written out here because islands never import the server's api/.
export type Locale = 'fr' | 'en';

export interface Localized {
  fr: string;
  en: string;
}

export interface CartLineData {
  id: number;
  artworkId: number;
  /** The work's key in the gallery (`/gallery?work=<slug>`). */
  slug: string;
  type: 'original' | 'print';
  title: Localized;
  technique: Localized;
  dimensions: string;
  image: { sha256: string; width: number; height: number } | null;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** 1 for an original, the prints left for a print. */
  maxQuantity: number;
}

export interface CartData {
  lines: CartLineData[];
  count: number;
  promo: { code: string; percent: number } | null;
  totals: {
    subtotalCents: number;
    discountCents: number;
    shippingCents: number;
    totalCents: number;
  };
  shipping: { defaultCents: number; freeThresholdCents: number };
  /** Works dropped since the last look because they were sold or withdrawn. */
  removed: Localized[];
}

/** The answer of every cart call. */
export interface CartAnswer {
  cart: CartData;
}

/** Translated texts, picked on the server for the island (see pick-messages.ts). */
export type Messages = Readonly<Record<string, string>>;

/** An order as its buyer sees it (success and account pages): `BuyerOrder` of api/orders/view.ts. */
export interface BuyerOrderLineData {
  title: string;
  type: 'original' | 'print';
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  image: { sha256: string; width: number; height: number } | null;
}

export interface BuyerOrderData {
  number: string;
  date: string;
  locale: Locale;
  paymentStatus: string;
  currency: string;
  subtotalCents: number;
  promoCode: string | null;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  lines: BuyerOrderLineData[];
}
