import { describe, expect, it } from 'vitest';
import { checkoutSchema } from './checkout.ts';
import { fieldErrors } from './fields.ts';

const valid = {
  locale: 'fr',
  items: [{ artworkId: 3, quantity: 2 }],
  customer: { name: 'Ana', email: 'ana@example.test', phone: '' },
  shippingAddress: {
    street: '1 rue de la Paix',
    city: 'Paris',
    postalCode: '75002',
    country: 'FR',
  },
  billingSameAsShipping: true,
  promoCode: 'SASHA25',
  acceptTerms: true,
};

const errorsOf = (input: unknown) => {
  const parsed = checkoutSchema.safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error);
};

describe('checkoutSchema', () => {
  it('accepts what the checkout form sends', () => {
    expect(checkoutSchema.safeParse(valid).success).toBe(true);
  });

  it('requires the terms of sale to be accepted (issue 9)', () => {
    const { acceptTerms: _accepted, ...without } = valid;
    expect(errorsOf(without)).toEqual({ acceptTerms: 'checkout.error.terms' });
    expect(errorsOf({ ...valid, acceptTerms: false })).toEqual({
      acceptTerms: 'checkout.error.terms',
    });
    expect(errorsOf({ ...valid, acceptTerms: 'yes' })).toEqual({
      acceptTerms: 'checkout.error.terms',
    });
  });

  it('refuses prices, totals or any other field the browser must not decide', () => {
    expect(errorsOf({ ...valid, total: 1 })).toHaveProperty('_');
    expect(errorsOf({ ...valid, items: [{ artworkId: 3, quantity: 1, price: 1 }] })).toHaveProperty(
      '_',
    );
    expect(errorsOf({ ...valid, discountAmount: 5000 })).toHaveProperty('_');
  });

  it('names each missing field with the pre-payment messages’ keys', () => {
    expect(
      errorsOf({
        ...valid,
        items: [],
        customer: { name: ' ', email: '' },
        shippingAddress: { street: '', city: '', postalCode: '', country: 'US' },
      }),
    ).toEqual({
      items: 'checkout.error.cartEmpty',
      'customer.name': 'checkout.error.name',
      'customer.email': 'checkout.error.email',
      'shippingAddress.street': 'checkout.error.shipping.street',
      'shippingAddress.city': 'checkout.error.shipping.city',
      'shippingAddress.postalCode': 'checkout.error.shipping.postalCode',
      'shippingAddress.country': 'checkout.error.shipping.country',
    });
    expect(errorsOf({ ...valid, items: [{ artworkId: 3, quantity: 0 }] })).toEqual({
      'items.0.quantity': 'checkout.error.itemQuantity',
    });
    expect(errorsOf({ ...valid, customer: { name: 'Ana', email: 'not-an-email' } })).toEqual({
      'customer.email': 'checkout.error.emailInvalid',
    });
  });

  it('requires the billing address only when it differs from shipping', () => {
    expect(errorsOf({ ...valid, billingSameAsShipping: false })).toEqual({
      'billingAddress.street': 'checkout.error.billing.street',
    });
    expect(
      checkoutSchema.safeParse({
        ...valid,
        billingSameAsShipping: false,
        billingAddress: { street: '2 rue B', city: 'Lyon', postalCode: '69001', country: 'FR' },
      }).success,
    ).toBe(true);
  });
});
