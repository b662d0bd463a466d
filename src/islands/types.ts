// What the islands receive: data shapes are the shared schemas' inferred types (src/schemas/views.ts,
// the same the server's services are typed by); only the islands' own UI types live here.
export type {
  BuyerOrder as BuyerOrderData,
  BuyerOrderLine as BuyerOrderLineData,
  CartAnswer,
  CartLine as CartLineData,
  CartView as CartData,
  Locale,
  Localized,
} from '../schemas/views.ts';

/** Translated texts, picked on the server for the island (see pick-messages.ts). */
export type Messages = Readonly<Record<string, string>>;
