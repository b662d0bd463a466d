// The customer an endpoint is about, from `?email=`: addresses carry '@', '+' and dots, so they
// travel as a query parameter (URLSearchParams encodes them) rather than in the path. A missing or
// malformed one is `invalid_input` naming `email`.
import type { APIContext } from 'astro';
import { AppError } from '#api/http/errors.ts';
import { customerEmailSchema } from '../../../../schemas/admin-customers.ts';

export function customerEmail({ url }: Pick<APIContext, 'url'>): string {
  const parsed = customerEmailSchema.safeParse({ email: url.searchParams.get('email') ?? '' });
  if (!parsed.success)
    throw new AppError('invalid_input', { fields: { email: 'Adresse email du client manquante' } });
  return parsed.data.email;
}
