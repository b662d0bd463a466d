// GET /api/admin/analytics?period=7d|30d|90d|1y (default 30d) → every figure of the analytics
// screen, computed in SQL (api/admin/analytics.ts). 400 `invalid_input` naming `period` for any
// other value. Admin only (middleware).
import { analytics } from '#api/admin/analytics.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import {
  ANALYTICS_PERIODS,
  DEFAULT_ANALYTICS_PERIOD,
  isAnalyticsPeriod,
} from '../../../schemas/analytics.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ url }) => {
    const period = url.searchParams.get('period') ?? DEFAULT_ANALYTICS_PERIOD;
    if (!isAnalyticsPeriod(period))
      throw new AppError('invalid_input', {
        fields: { period: `Période inconnue (${ANALYTICS_PERIODS.join(', ')})` },
      });
    return analytics(await getDb(), period);
  },
});
