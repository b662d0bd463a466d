// Who is asking, behind any reverse proxy: the one rule for the client's address and protocol
// (issue 14). Without TRUST_PROXY nothing a client sends is believed: the address is the socket's
// peer and the protocol the socket's. With it, `X-Forwarded-For` is read from the right — each
// trusted proxy appends the address it received the request from — and the first address that is
// not a trusted proxy is the client's, so whatever a client writes at the left is never used.
// `X-Forwarded-Proto` is believed only when the socket's peer is a trusted proxy.
//
// The HTTP layer (api/http/app.ts) resolves the client once per request, attaches it to the
// Node request (visit counts read it there) and hands it to Astro as `locals.client`, which every
// per-address limit, the cookies' `Secure` flag and nothing else use.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** TRUST_PROXY: nothing, a number of proxies in front of us, or their addresses / CIDRs. */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; addresses: readonly string[] };

export const TRUST_NOTHING: TrustProxy = { kind: 'none' };

export interface Client {
  /** The client's IP address ('' when unknown); IPv4-mapped IPv6 given as IPv4. */
  address: string;
  /** The protocol the client used to reach the site (the first proxy's, when trusted). */
  protocol: 'http' | 'https';
}

const MAX_HOPS = 32;

export const TRUST_PROXY_HELP =
  'TRUST_PROXY must be a number of proxies (e.g. 1) or a comma-separated list of their addresses or CIDRs (e.g. 10.0.0.0/8,::1)';

/** Parses TRUST_PROXY; throws an Error saying what is accepted. Empty or `0`: trust nothing. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === '0') return TRUST_NOTHING;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new Error(TRUST_PROXY_HELP);
    return { kind: 'hops', hops };
  }
  const addresses = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (addresses.length === 0 || !addresses.every((entry) => subnet(entry) !== null))
    throw new Error(TRUST_PROXY_HELP);
  return { kind: 'addresses', addresses };
}

/** `address` or `address/prefix` as BlockList wants it, or null. */
function subnet(entry: string): { address: string; prefix: number; type: 'ipv4' | 'ipv6' } | null {
  const [raw = '', prefixText, extra] = entry.split('/');
  if (extra !== undefined) return null;
  const address = normalizeAddress(raw);
  if (!address) return null;
  const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const max = type === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, type };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { address, prefix: Number(prefixText), type };
}

/**
 * An address as it may appear in a socket or a forwarded header — `::ffff:192.0.2.1`,
 * `[2001:db8::1]:443`, `192.0.2.1:5678` — as a bare IP, or null when it is none.
 */
export function normalizeAddress(value: string): string | null {
  let text = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/^::ffff:(?=\d{1,3}(\.\d{1,3}){3}$)/i, '');
  const version = isIP(text);
  if (version === 4) return text;
  if (version === 6) return text.toLowerCase();
  return null;
}

/** Every comma-separated value of a header that may come several times, in order. */
function headerValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value])
    .flatMap((line) => line.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Whether `address` is a trusted proxy `hop` proxies away (built once: a BlockList). */
function trustCheck(trust: TrustProxy): (address: string, hop: number) => boolean {
  if (trust.kind === 'none') return () => false;
  if (trust.kind === 'hops') return (_address, hop) => hop < trust.hops;
  const list = new BlockList();
  for (const entry of trust.addresses) {
    const { address, prefix, type } = subnet(entry)!;
    list.addSubnet(address, prefix, type);
  }
  return (address) => list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
}

/** The resolver for one TRUST_PROXY value (built once: the address list becomes a BlockList). */
export function clientResolver(trust: TrustProxy): (req: IncomingMessage) => Client {
  const isTrusted = trustCheck(trust);
  return (req) => clientAddress(req, isTrusted);
}

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6. */
export function isLoopbackAddress(value: string | undefined): boolean {
  const address = normalizeAddress(value ?? '');
  return address !== null && (address.startsWith('127.') || address === '::1');
}

/** Headers only a proxy adds: a request carrying any of them was forwarded, whoever sent it. */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
] as const;

/**
 * Whether a request reached us straight from a program on this machine: the socket's peer is a
 * loopback address and no proxy header is present. Read from the socket, never from a header.
 */
export function straightFromThisMachine(req: IncomingMessage): boolean {
  return (
    isLoopbackAddress(req.socket.remoteAddress) &&
    FORWARDING_HEADERS.every((name) => req.headers[name] === undefined)
  );
}

/**
 * Whether a request counts as made by someone at this machine (the first administrator's setup
 * link, docs/decisions/048): straight from it, and its peer is no proxy TRUST_PROXY names — a
 * proxy on the same machine connects from loopback for every visitor, so what it passes on never
 * qualifies, forwarded headers or not.
 */
export function thisMachineResolver(trust: TrustProxy): (req: IncomingMessage) => boolean {
  const isTrusted = trustCheck(trust);
  return (req) =>
    straightFromThisMachine(req) &&
    !isTrusted(normalizeAddress(req.socket.remoteAddress ?? '') ?? '', 0);
}

/** The client of one request, believing forwarded headers only from trusted proxies. */
function clientAddress(
  req: IncomingMessage,
  isTrusted: (address: string, hop: number) => boolean,
): Client {
  const socketProtocol = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  let address = normalizeAddress(req.socket.remoteAddress ?? '') ?? '';
  if (address === '' || !isTrusted(address, 0)) return { address, protocol: socketProtocol };
  // Nearest first: the addresses each proxy appended, read from the right.
  const forwarded = headerValues(req.headers['x-forwarded-for']).reverse();
  let hops = 0;
  while (hops < forwarded.length && isTrusted(address, hops)) {
    const next = normalizeAddress(forwarded[hops]!);
    // What a trusted proxy forwarded is no address: that proxy is the furthest we know of.
    if (next === null) break;
    address = next;
    hops++;
  }
  // One value per trusted proxy when each appends, one when the nearest overwrites: the value
  // written by the furthest trusted proxy is the protocol the client used.
  const protocols = headerValues(req.headers['x-forwarded-proto']);
  const claimed = protocols[Math.max(0, protocols.length - Math.max(hops, 1))]?.toLowerCase();
  const protocol = claimed === 'http' || claimed === 'https' ? claimed : socketProtocol;
  return { address, protocol };
}

/** Where the HTTP layer leaves the resolved client on the Node request (one per request). */
const CLIENT = Symbol.for('galerie.client');

export function attachClient(req: IncomingMessage, client: Client): void {
  (req as IncomingMessage & { [CLIENT]?: Client })[CLIENT] = client;
}

/** The client the HTTP layer resolved, or the socket's peer when none was attached. */
export function attachedClient(req: IncomingMessage): Client {
  return (
    (req as IncomingMessage & { [CLIENT]?: Client })[CLIENT] ?? clientAddress(req, () => false)
  );
}

/**
 * Whether cookies set in answer to a request carry `Secure`: when the public site is
 * `https://` (PUBLIC_SITE_URL), or the client reached us over HTTPS (trusted proxy or TLS).
 * Never decided from the `Host` header.
 */
export function secureCookies(siteUrl: string, client: Client): boolean {
  return siteUrl.startsWith('https://') || client.protocol === 'https';
}
