// POST /api/admin/editions/:id/numbers/:number `{ decision: 'release' | 'retire' }` → `{ register }`:
// the owner's decision on a returned number — sell it again under the same number, or retire it
// (docs/decisions/045). Audited. A number that is not returned (or released and unsold, for
// 'retire') is a 409 `edition_conflict` in French; an unknown work or number a 404; a bad body a
// 400. Admin only (middleware, which also checks the origin).
import { requireAdmin } from '#api/accounts/guards.ts';
import { systemClock } from '#api/clock.ts';
import { getDb } from '#api/db/context.ts';
import { decideReturnedNumber } from '#api/editions/register.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import {
  editionPathId,
  editionPathNumber,
  returnedDecisionSchema,
} from '../../../../../../schemas/admin-editions.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: returnedDecisionSchema,
  maxBytes: 1024,
  handler: async ({ decision }, { params, locals }) => {
    const actor = requireAdmin(locals);
    const id = editionPathId.safeParse(params['id']);
    const number = editionPathNumber.safeParse(params['number']);
    if (!id.success || !number.success) throw new AppError('not_found');
    const register = await decideReturnedNumber(
      await getDb(),
      id.data,
      number.data,
      decision,
      actor,
      systemClock(),
    );
    return { register };
  },
});
