// GET /api/auth/session → 200 `{ user: { name, email, role, emailVerified } | null }`: who is
// signed in, for prerendered pages whose islands need to know (header, login page redirect).
import type { APIRoute } from 'astro';
import { NO_STORE } from './_shared.ts';

export const prerender = false;

export const GET: APIRoute = ({ locals }) => {
  const user = locals.user;
  return Response.json(
    {
      user: user
        ? { name: user.name, email: user.email, role: user.role, emailVerified: user.emailVerified }
        : null,
    },
    { headers: { ...NO_STORE, Vary: 'Cookie' } },
  );
};
