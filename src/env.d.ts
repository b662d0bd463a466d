// What the middleware (src/middleware.ts) puts in `Astro.locals` for every on-demand request.
declare namespace App {
  interface Locals {
    /** The signed-in user (`{ id, email, name, role, emailVerified }`), or null. */
    user: import('#api/accounts/sessions.ts').SessionUser | null;
    /** The current session (`{ id, userId, expiresAt }`), or null. */
    session: import('#api/accounts/sessions.ts').Session | null;
    /** The client (address, protocol) as the HTTP layer resolved it behind any trusted proxy
     * (TRUST_PROXY, api/http/client.ts): what every per-address limit uses. */
    client: import('#api/http/client.ts').Client;
    /** Set by the HTTP layer: the request came straight from this machine, through no proxy
     * (api/http/client.ts thisMachineResolver); absent elsewhere (astro dev, tests). */
    fromThisMachine?: boolean;
    /** Whether cookies get `Secure`: PUBLIC_SITE_URL is https:// or the client came over HTTPS. */
    secureCookies: boolean;
  }
}
