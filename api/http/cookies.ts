// Names of the cookies that carry a credential (issue 24, docs/decisions/038). Over HTTPS they
// take the `__Host-` prefix, which browsers store only with Secure, Path=/ and no Domain: neither
// a sibling subdomain nor a plain-http answer can then plant or overwrite one (cookie tossing,
// session fixation). Plain http (local development) cannot set a prefixed cookie: the bare name.
//
// Each is read under the one name its transport allows: on HTTPS a bare `session` is ignored.

/** `name` as sent on a request whose cookies are `secure` (`locals.secureCookies`). */
export function hostCookie(name: string, secure: boolean): string {
  return secure ? `__Host-${name}` : name;
}
