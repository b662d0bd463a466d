import { describe, expect, it } from 'vitest';
import { StripeApiError } from './errors.ts';
import { Params, parseForm } from './form.ts';

const error = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof StripeApiError) return e.toBody().error;
    throw e;
  }
  throw new Error('did not throw');
};

describe('parseForm', () => {
  it('nests bracketed keys into objects and lists, as stripe-node encodes them', () => {
    const form = parseForm(
      'mode=payment&line_items[0][price_data][unit_amount]=35000' +
        '&line_items[0][price_data][product_data][name]=Mar%C3%A9e+haute' +
        '&line_items[0][quantity]=1&line_items[1][quantity]=2' +
        '&metadata[order_id]=42&expand[]=payment_intent&expand[]=line_items' +
        '&success_url=http%3A%2F%2Fshop.test%2Fok%3Fid%3D%7BCHECKOUT_SESSION_ID%7D',
    );
    expect(form).toEqual({
      mode: 'payment',
      line_items: [
        {
          price_data: { unit_amount: '35000', product_data: { name: 'Marée haute' } },
          quantity: '1',
        },
        { quantity: '2' },
      ],
      metadata: { order_id: '42' },
      expand: ['payment_intent', 'line_items'],
      success_url: 'http://shop.test/ok?id={CHECKOUT_SESSION_ID}',
    });
  });

  it('accepts encoded brackets and closes holes in lists', () => {
    expect(parseForm('a%5B0%5D=x&a%5B2%5D=y')).toEqual({ a: ['x', 'y'] });
  });

  it('refuses prototype keys, a key that is both a value and an object, and huge indexes', () => {
    expect(() => parseForm('__proto__[polluted]=1')).toThrow(StripeApiError);
    expect(() => parseForm('metadata[constructor]=1')).toThrow(StripeApiError);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(() => parseForm('a=1&a[b]=2')).toThrow(StripeApiError);
    expect(() => parseForm('a[b]=2&a=1')).toThrow(StripeApiError);
    expect(() => parseForm('a[100000]=1')).toThrow(StripeApiError);
  });
});

describe('Params', () => {
  const params = (text: string) => new Params(parseForm(text));

  it('names nested params the way Stripe does in errors', () => {
    const [item] = params('line_items[0][quantity]=abc').list('line_items');
    expect(error(() => item?.integer('quantity'))).toEqual({
      type: 'invalid_request_error',
      message: 'Invalid integer: abc',
      code: 'parameter_invalid_integer',
      param: 'line_items[0][quantity]',
    });
    expect(error(() => item?.string('name', { required: true }))).toMatchObject({
      code: 'parameter_missing',
      param: 'line_items[0][name]',
    });
  });

  it('refuses unknown parameters and empty required ones', () => {
    expect(error(() => params('mode=payment&foo=1').allowOnly(['mode']))).toMatchObject({
      message: 'Received unknown parameter: foo',
      code: 'parameter_unknown',
    });
    expect(
      error(() => params('success_url=').string('success_url', { required: true })),
    ).toMatchObject({ code: 'parameter_invalid_empty' });
  });

  it('reads metadata within Stripe’s limits, dropping emptied keys', () => {
    expect(params('metadata[a]=1&metadata[b]=').metadata()).toEqual({ a: '1' });
    expect(error(() => params(`metadata[${'k'.repeat(41)}]=1`).metadata())).toMatchObject({
      message: expect.stringContaining('up to 40 characters') as unknown,
    });
  });

  it('refuses keys nested too deep or too long before walking them (issue 14)', () => {
    // 100 000 levels used to overflow the stack; the key is refused as a 400 instead.
    const deep = `metadata${'[a]'.repeat(100_000)}=x`;
    expect(error(() => parseForm(deep))).toMatchObject({ type: 'invalid_request_error' });
    expect(error(() => parseForm(`a${'[b]'.repeat(8)}=x`))).toMatchObject({
      message: expect.stringContaining('nest at most 8 levels') as unknown,
    });
    expect(parseForm(`a${'[b]'.repeat(7)}=x`)).toBeTruthy();
    expect(error(() => params('metadata[a][b]=x').metadata())).toMatchObject({
      type: 'invalid_request_error',
      param: 'metadata[a]',
    });
    expect(error(() => params(`name=${'n'.repeat(5001)}`).string('name'))).toMatchObject({
      code: 'string_length_exceeds_maximum',
    });
    const many = Array.from({ length: 101 }, (_, i) => `line_items[${i}][quantity]=1`).join('&');
    expect(error(() => params(many).list('line_items'))).toMatchObject({
      param: 'line_items',
    });
  });
});
