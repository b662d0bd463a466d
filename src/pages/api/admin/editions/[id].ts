// GET /api/admin/editions/:id → `{ register }`: one edition's register, every number with its
// state (docs/decisions/045). An unknown or malformed id, or a work without a numbered edition, is
// a 404. Admin only (middleware).
import { getDb } from '#api/db/context.ts';
import { editionRegister } from '#api/editions/register.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import { editionPathId } from '../../../../schemas/admin-editions.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ params }) => {
    const id = editionPathId.safeParse(params['id']);
    if (!id.success) throw new AppError('not_found');
    return { register: await editionRegister(await getDb(), id.data) };
  },
});
