// Where to go after a login: only a path of this site (`/…`, not `//host` nor `/\host`, which
// browsers read as another host, nor control characters) is followed; anything else goes to the
// fallback (no open redirect).
export function sameSitePath(value: string | null | undefined, fallback: string): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return fallback;
  const unsafe = [...value].some((char) => char === '\\' || char <= '\u001f' || char === '\u007f');
  return unsafe ? fallback : value;
}
