// Path ids of the admin endpoints (the leading underscore keeps this file out of the routes):
// bounded to the column type, anything else is not found.
import type { APIContext } from 'astro';
import { AppError } from '#api/http/errors.ts';
import { pathRowId } from '../../../schemas/fields.ts';

export function artworkId({ params }: Pick<APIContext, 'params'>): number {
  const id = pathRowId(params['id']);
  if (id === null) throw new AppError('not_found', { message: 'No such artwork.' });
  return id;
}
