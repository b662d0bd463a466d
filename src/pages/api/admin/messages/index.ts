// GET /api/admin/messages?filter=all|unread&page= → MessageList (api/admin/messages.ts): the
// contact messages and enquiries about works, newest first, 20 a page, with the unread count. A bad
// parameter falls back to its default. Admin only (middleware).
import { listMessages } from '#api/admin/messages.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { messageListQuerySchema } from '../../../../schemas/admin-messages.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ url }) =>
    listMessages(await getDb(), messageListQuerySchema.parse(Object.fromEntries(url.searchParams))),
});
