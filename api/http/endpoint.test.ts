import type { APIContext } from 'astro';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineEndpoint } from './endpoint.ts';
import { AppError } from './errors.ts';

const context = (body: string | null, type = 'application/json') =>
  ({
    request: new Request('http://shop.test/api/x', {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    }),
  }) as unknown as APIContext;

const schema = z.strictObject({
  customer: z.object({ email: z.email({ error: 'checkout.error.email' }) }),
  quantity: z.number().int().min(1, { error: 'cart.error.quantity' }),
});

describe('defineEndpoint', () => {
  const endpoint = defineEndpoint({
    schema,
    status: 201,
    handler: (input) => ({ received: input.quantity }),
  });

  it('parses the body with its schema and answers the handler’s result as JSON', async () => {
    const response = await endpoint(
      context(JSON.stringify({ customer: { email: 'a@b.example' }, quantity: 2 })),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ received: 2 });
  });

  it('answers every field error in one format: dotted path → message key, `_` for the rest', async () => {
    const response = await endpoint(
      context(JSON.stringify({ customer: { email: 'nope' }, quantity: 0, price: 1 })),
    );
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; fields: object } };
    expect(error.code).toBe('invalid_input');
    expect(error.fields).toEqual({
      'customer.email': 'checkout.error.email',
      quantity: 'cart.error.quantity',
      _: expect.any(String) as string,
    });
  });

  it('maps bad bodies and thrown errors through the one error table', async () => {
    expect((await endpoint(context('{"quantity":'))).status).toBe(400);
    expect((await endpoint(context('x', 'text/plain'))).status).toBe(415);
    const refusing = defineEndpoint({
      handler: () => {
        throw new AppError('forbidden');
      },
    });
    const response = await refusing(context(null));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('lets an endpoint name a more precise error for some failures', async () => {
    const withToken = defineEndpoint({
      schema: z.strictObject({ token: z.string().min(10) }),
      invalid: (issues) =>
        issues.every((i) => i.path[0] === 'token') ? new AppError('invalid_token') : undefined,
      handler: () => null,
    });
    const response = await withToken(context(JSON.stringify({ token: 'short' })));
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_token' } });
  });
});
