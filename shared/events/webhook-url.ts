import { lookup } from 'node:dns/promises';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Where the service may send webhooks (docs/API.md §4.6, SECURITY.md "Webhooks and SSRF").
 *
 * `deployed`: `https` only, and every address the host resolves to must be public. `local` (the dev
 * server, refused in Lambda by config.ts): also `http://127.0.0.1:<port>` and `http://localhost:<port>`,
 * and loopback addresses are allowed; every other rule is the same.
 */
export type WebhookUrlPolicy = 'deployed' | 'local';

/** A URL over this length is refused (docs/API.md §4.6). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** One resolved address of a host. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (a parameter, so tests can make a name resolve anywhere). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The rules a process checks webhook URLs with: its policy and its resolver. */
export interface WebhookUrlRules {
  readonly policy: WebhookUrlPolicy;
  readonly resolve: Resolver;
}

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** Addresses no webhook may reach: private, loopback, link-local, CGNAT, unique-local, multicast, metadata, reserved. */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the instance metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const)
  forbidden.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // IPv4-compatible (deprecated), the unspecified address and loopback ::1 among them
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): an IPv4 address of any kind behind a translator
  ['64:ff9b:1::', 48], // local-use NAT64: a translator of the network's own, which reaches 169.254.169.254
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address of any kind
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 segment identifiers (RFC 9602): not hosts
  ['fc00::', 7], // unique-local, including the instance metadata service fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  forbidden.addSubnet(network, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * The IPv4 address an IPv6 address stands for (IPv4-mapped `::ffff:a.b.c.d`, the well-known NAT64
 * prefix `64:ff9b::/96`), if any: judged as that IPv4 address. The other forms that carry one
 * (IPv4-compatible `::/96`, IPv4-translated `::ffff:0:0:0/96`, local-use NAT64 `64:ff9b:1::/48`) are
 * refused whole.
 */
function embeddedIpv4(address: string): string | undefined {
  const words = expandIpv6(address);
  if (!words) return undefined;
  const mapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (!mapped && !nat64) return undefined;
  const [high = 0, low = 0] = words.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit words of an IPv6 address (dotted IPv4 tail included); undefined if it is not one. */
function expandIpv6(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined;
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s ? s.split(':').map((w) => Number.parseInt(w, 16)) : []);
  const [left, right] = [part(head), part(tail ?? '')];
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: zeros }, () => 0), ...right];
}

/** Whether the service may connect to `address` under `policy`. */
function isAllowedAddress(address: string, policy: WebhookUrlPolicy): boolean {
  const v4 = isIPv4(address) ? address : embeddedIpv4(address);
  if (v4) {
    if (policy === 'local' && loopback.check(v4, 'ipv4')) return true;
    return !forbidden.check(v4, 'ipv4');
  }
  if (!isIPv6(address)) return false;
  if (policy === 'local' && loopback.check(address, 'ipv6')) return true;
  return !forbidden.check(address, 'ipv6');
}

/**
 * The one refusal for a host that does not resolve and for one that resolves to an address a webhook
 * may not reach: two messages would let an ADMIN probe the service's DNS (which internal names exist).
 */
const ADDRESS_REFUSED = 'must resolve to public addresses only';

/** A webhook URL the service refuses, with the reason given to the caller (400 on `url`). */
export class WebhookUrlError extends Error {
  override name = 'WebhookUrlError';
}

/**
 * `text` as a URL the policy allows, before any resolution: the scheme, no credentials, the length, a
 * host. The WHATWG parser normalises every IPv4 spelling (`2130706433`, `0177.0.0.1`, `0x7f.1`) to
 * dotted decimal, so the address checks see the address a connection would use.
 */
export function parseWebhookUrl(text: string, policy: WebhookUrlPolicy): URL {
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    throw new WebhookUrlError(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookUrlError('must be an absolute https:// URL');
  }
  if (url.username || url.password) throw new WebhookUrlError('must not carry credentials');
  if (url.hash) throw new WebhookUrlError('must not carry a fragment');
  const localHttp =
    policy === 'local' &&
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === 'localhost') &&
    url.port !== '';
  if (url.protocol !== 'https:' && !localHttp)
    throw new WebhookUrlError(
      policy === 'local'
        ? 'must be https://, or http://127.0.0.1:<port> or http://localhost:<port> locally'
        : 'must be an https:// URL',
    );
  return url;
}

/** The host as an address literal (`[::1]` → `::1`), or undefined for a name. */
function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIPv4(bare) || isIPv6(bare) ? bare : undefined;
}

/**
 * Resolves the URL's host and checks every address it resolves to: one forbidden address refuses the
 * URL (a name with a public and a private address could be steered to the private one). Returns the
 * address to connect to, so nothing resolves the name a second time between check and connection.
 */
export async function resolveWebhookAddress(
  url: URL,
  policy: WebhookUrlPolicy,
  resolve: Resolver,
): Promise<ResolvedAddress> {
  const literal = literalAddress(url.hostname);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: literal, family: isIPv4(literal) ? 4 : 6 }];
  else {
    try {
      addresses = await resolve(url.hostname);
    } catch {
      throw new WebhookUrlError(ADDRESS_REFUSED);
    }
  }
  const [first] = addresses;
  if (!first || !addresses.every(({ address }) => isAllowedAddress(address, policy)))
    throw new WebhookUrlError(ADDRESS_REFUSED);
  return first;
}
