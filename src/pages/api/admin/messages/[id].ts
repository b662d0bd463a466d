// PATCH /api/admin/messages/:id `{ read: boolean }` → `{ message, unread }`: the Messages screen
// marks a message read when it is opened, and the owner may mark it unread again. An unknown or
// malformed id is a 404. Admin only (middleware, which also checks the origin).
import { setMessageRead } from '#api/admin/messages.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { messageReadSchema } from '../../../../schemas/admin-messages.ts';

export const prerender = false;

export const PATCH = defineEndpoint({
  schema: messageReadSchema,
  maxBytes: 1024,
  handler: async ({ read }, { params }) => setMessageRead(await getDb(), params['id'] ?? '', read),
});
