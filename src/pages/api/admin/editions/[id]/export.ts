// GET /api/admin/editions/:id/export?format=csv|pdf → the edition's register as a file to keep
// (docs/decisions/045): CSV for a spreadsheet (UTF-8 BOM, ';', CRLF), or an A4 PDF. Another format
// is a 400; an unknown work a 404. Admin only (middleware).
import { systemClock } from '#api/clock.ts';
import { getDb } from '#api/db/context.ts';
import { registerCsv, registerPdf } from '#api/editions/export.ts';
import { editionRegister } from '#api/editions/register.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import { parisDay } from '#api/orders/sales.ts';
import { editionExportQuerySchema, editionPathId } from '../../../../../schemas/admin-editions.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ params, url }) => {
    const id = editionPathId.safeParse(params['id']);
    if (!id.success) throw new AppError('not_found');
    const query = editionExportQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!query.success)
      throw new AppError('invalid_input', {
        message: 'Format d’export inconnu : choisissez csv ou pdf.',
        fields: { format: 'admin.editions.error.format' },
      });
    const register = await editionRegister(await getDb(), id.data);
    const now = systemClock();
    const name = `registre-tirage-${register.work.id}-${parisDay(now)}`;
    const headers = { 'Cache-Control': 'no-store' };
    if (query.data.format === 'csv')
      return new Response(registerCsv(register), {
        headers: {
          ...headers,
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${name}.csv"`,
        },
      });
    const pdf = await registerPdf(register, now);
    return new Response(new Uint8Array(pdf), {
      headers: {
        ...headers,
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${name}.pdf"`,
      },
    });
  },
});
