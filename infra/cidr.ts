import { isIPv4, isIPv6 } from 'node:net';

/** The IP versions WAF keeps in separate IP sets, with their address width in bits. */
const WIDTH = { IPV4: 32, IPV6: 128 } as const;
type IpVersion = keyof typeof WIDTH;

/** An address as a number: IPv4 dotted quads, IPv6 groups with `::` expanded. */
function addressBits(address: string, version: IpVersion): bigint {
  if (version === 'IPV4') return address.split('.').reduce((bits, octet) => (bits << 8n) | BigInt(octet), 0n);
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const expanded =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return expanded.reduce((bits, group) => (bits << 16n) | BigInt(`0x${group}`), 0n);
}

const dotted = (bits: bigint) => [24n, 16n, 8n, 0n].map((shift) => (bits >> shift) & 255n).join('.');

/** Which IP set a valid CIDR range belongs in. */
export const ipVersionOf = (cidr: string): IpVersion => (cidr.includes(':') ? 'IPV6' : 'IPV4');

/**
 * What is wrong with `cidr` as a WAF IP set entry, or undefined when nothing is: WAF takes
 * `address/prefix` with a prefix of 1–32 (IPv4) or 1–128 (IPv6), never /0. A range with host bits set
 * (`192.0.2.1/24`) is refused rather than silently widened, so that what is blocked is what is written.
 */
export function cidrProblem(cidr: string): string | undefined {
  const match = /^([^/\s]+)\/(\d{1,3})$/.exec(cidr);
  if (!match?.[1] || !match[2]) return 'must be a CIDR range, address/prefix (192.0.2.0/24, 2001:db8::/32)';
  const [, address, prefixText] = match;
  const version: IpVersion | undefined = isIPv4(address)
    ? 'IPV4'
    : isIPv6(address) && !/[.%]/.test(address)
      ? 'IPV6'
      : undefined;
  if (!version) return 'must start with an IPv4 or IPv6 address (IPv6 in hex groups only)';
  const width = WIDTH[version];
  const prefix = Number(prefixText);
  if (prefix < 1 || prefix > width) return `must have a prefix from /1 to /${width}`;
  const bits = addressBits(address, version);
  const hostMask = (1n << BigInt(width - prefix)) - 1n;
  if ((bits & hostMask) !== 0n) {
    const network = bits & ~hostMask;
    return version === 'IPV4'
      ? `has host bits set: write ${dotted(network)}/${prefix}`
      : `has bits set beyond /${prefix}: write the network address`;
  }
  return undefined;
}
