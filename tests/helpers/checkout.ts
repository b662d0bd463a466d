// The body of a POST /api/checkout the tests send: a buyer in Paris who accepts the terms.
import type { CheckoutRequest } from '#api/checkout/index.ts';

export function checkoutRequest(
  items: CheckoutRequest['items'],
  extra: Partial<CheckoutRequest> = {},
): CheckoutRequest {
  return {
    locale: 'fr',
    items,
    customer: { name: 'Ana Buyer', email: 'ana@example.test' },
    shippingAddress: {
      street: '1 rue de la Paix',
      city: 'Paris',
      postalCode: '75002',
      country: 'FR',
    },
    billingSameAsShipping: true,
    acceptTerms: true,
    ...extra,
  };
}
