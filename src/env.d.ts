// What the middleware (src/middleware.ts) puts in `Astro.locals` for every on-demand request.
declare namespace App {
  interface Locals {
    /** The signed-in user (`{ id, email, name, role, emailVerified }`), or null. */
    user: import('#api/accounts/sessions.ts').SessionUser | null;
    /** The current session (`{ id, userId, expiresAt }`), or null. */
    session: import('#api/accounts/sessions.ts').Session | null;
  }
}
