// GET /api/admin/publish → the publish status `{ state: idle|queued|building|failed, lastSuccessAt,
// lastError, version, pending, changes, changeCount, lastChanges, etaMs, buildMs }`: what is being
// published and in how many milliseconds it should be live (api/build/publisher.ts), read by the
// back office's pill (src/admin/publish-pill.ts); POST asks for a publish by hand → 202 with the
// status. Admin only (the middleware guards /api/admin/**). Without a running server's queue
// (astro dev): 503.
import { publishStatus, requestPublish } from '#api/build/publish.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';

export const prerender = false;

function status() {
  const current = publishStatus();
  if (!current) throw new AppError('publish_unavailable');
  return current;
}

export const GET = defineEndpoint({ handler: () => status() });

export const POST = defineEndpoint({
  status: 202,
  handler: () => {
    status();
    requestPublish('requested by hand', { force: true });
    return status();
  },
});
