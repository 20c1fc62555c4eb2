import { describe, expect, it } from 'vitest';
import {
  MAX_WEBHOOK_URL_LENGTH,
  parseWebhookUrl,
  type Resolver,
  resolveWebhookAddress,
  WebhookUrlError,
} from '#shared/events/webhook-url.ts';

/** A resolver that answers `addresses` for every name, as a DNS server under someone's control could. */
const resolvingTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const publicDns = resolvingTo('93.184.215.14');
/** The one refusal for every address a webhook may not reach, and for a name that does not resolve. */
const REFUSED = /^must resolve to public addresses only$/;

async function refusal(
  url: string,
  policy: 'deployed' | 'local' = 'deployed',
  resolve: Resolver = publicDns,
) {
  try {
    await resolveWebhookAddress(parseWebhookUrl(url, policy), policy, resolve);
  } catch (error) {
    if (error instanceof WebhookUrlError) return error.message;
    throw error;
  }
  return undefined;
}

describe('webhook URLs (deployed checks)', () => {
  it('accepts an https URL whose host resolves to public addresses only', async () => {
    expect(await refusal('https://hooks.example.com/bookings?x=1')).toBeUndefined();
    expect(await refusal('https://93.184.215.14:8443/')).toBeUndefined();
    expect(await refusal('https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/')).toBeUndefined();
  });

  it.each([
    ['loopback', 'https://127.0.0.1/'],
    ['private', 'https://10.0.0.1/'],
    ['private 172.16/12', 'https://172.20.1.1/'],
    ['private 192.168/16', 'https://192.168.1.10/'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['CGNAT', 'https://100.64.0.1/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unique-local', 'https://[fd00:ec2::254]/'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped IPv6 in hex', 'https://[::ffff:a9fe:a9fe]/'],
    ['NAT64 of metadata', 'https://[64:ff9b::a9fe:a9fe]/'],
    ['decimal 127.0.0.1', 'https://2130706433/'],
    ['octal 127.0.0.1', 'https://0177.0.0.1/'],
    ['hex 127.0.0.1', 'https://0x7f.0.0.1/'],
    ['short 127.1', 'https://127.1/'],
    ['decimal metadata', 'https://2852039166/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['multicast', 'https://224.0.0.1/'],
    ['local-use NAT64 of metadata', 'https://[64:ff9b:1::a9fe:a9fe]/'],
    ['local-use NAT64 of a public address', 'https://[64:ff9b:1:0:0:0:5db8:d70e]/'],
    ['IPv4-translated', 'https://[::ffff:0:a9fe:a9fe]/'],
    ['IPv4-translated of a public address', 'https://[::ffff:0:5db8:d70e]/'],
    ['IPv4-compatible', 'https://[::a9fe:a9fe]/'],
    ['IPv4-compatible of a public address', 'https://[::93.184.215.14]/'],
    ['SRv6 SIDs 5f00::/16', 'https://[5f00::1]/'],
    ['documentation 3fff::/20', 'https://[3fff:fff::1]/'],
  ])('refuses a %s address (%s)', async (_name, url) => {
    expect(await refusal(url)).toMatch(REFUSED);
  });

  it('refuses a name that resolves to a private address, even beside a public one', async () => {
    expect(await refusal('https://internal.example.com/', 'deployed', resolvingTo('10.1.2.3'))).toMatch(
      REFUSED,
    );
    expect(
      await refusal(
        'https://mixed.example.com/',
        'deployed',
        resolvingTo('93.184.215.14', '169.254.169.254'),
      ),
    ).toMatch(REFUSED);
    // The system resolver: localhost is loopback.
    const { systemResolver } = await import('#shared/events/webhook-url.ts');
    expect(await refusal('https://localhost:8443/', 'deployed', systemResolver)).toMatch(REFUSED);
  });

  it('refuses a name that does not resolve with the same words as a private address (no DNS probing)', async () => {
    const nothing: Resolver = async () => {
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const empty: Resolver = async () => [];
    const unresolved = await refusal('https://nowhere.example.com/', 'deployed', nothing);
    expect(unresolved).toMatch(REFUSED);
    expect(await refusal('https://nowhere.example.com/', 'deployed', empty)).toBe(unresolved);
    expect(await refusal('https://internal.example.com/', 'deployed', resolvingTo('10.1.2.3'))).toBe(
      unresolved,
    );
  });

  it.each([
    ['http', 'http://hooks.example.com/', /https/],
    ['local http when deployed', 'http://127.0.0.1:4000/', /https/],
    ['credentials', 'https://user:pass@hooks.example.com/', /credentials/],
    ['a user alone', 'https://user@hooks.example.com/', /credentials/],
    ['another scheme', 'ftp://hooks.example.com/', /https/],
    ['not a URL', 'hooks.example.com/path', /absolute https/],
    ['a fragment', 'https://hooks.example.com/#x', /fragment/],
    ['too long', `https://hooks.example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH)}`, /2048/],
  ])('refuses %s', async (_name, url, message) => {
    expect(await refusal(url)).toMatch(message);
  });
});

describe('webhook URLs (local)', () => {
  it('allows http://127.0.0.1:<port> and http://localhost:<port> and loopback addresses', async () => {
    const { systemResolver } = await import('#shared/events/webhook-url.ts');
    expect(await refusal('http://127.0.0.1:4000/hooks', 'local')).toBeUndefined();
    expect(await refusal('http://localhost:4000/hooks', 'local', systemResolver)).toBeUndefined();
  });

  it('still refuses other private addresses, http elsewhere, and a loopback host without a port', async () => {
    expect(await refusal('https://10.0.0.1/', 'local')).toMatch(REFUSED);
    expect(await refusal('https://169.254.169.254/', 'local')).toMatch(REFUSED);
    expect(await refusal('http://hooks.example.com/', 'local')).toMatch(/https/);
    expect(await refusal('http://127.0.0.1/', 'local')).toMatch(/https/);
    expect(await refusal('http://[::1]:4000/', 'local')).toMatch(/https/);
  });
});

describe('webhook URLs: the addresses a name may resolve to', () => {
  /** Whether a URL whose name resolves to `address` alone is accepted under `policy`. */
  const isAllowedAddress = async (address: string, policy: 'deployed' | 'local') =>
    (await refusal('https://hooks.example.com/', policy, resolvingTo(address))) === undefined;

  it('reads every spelling of an IPv6 address with an IPv4 inside', async () => {
    for (const address of ['::ffff:10.0.0.1', '::ffff:0a00:0001', '0:0:0:0:0:ffff:a00:1', '::10.0.0.1'])
      expect(await isAllowedAddress(address, 'deployed'), address).toBe(false);
    expect(await isAllowedAddress('::ffff:93.184.215.14', 'deployed')).toBe(true);
    expect(await isAllowedAddress('64:ff9b::5db8:d70e', 'deployed')).toBe(true);
  });

  it('allows public IPv6 beside the refused ranges, and loopback ::1 locally only', async () => {
    for (const address of ['5eff:ffff::1', '5f01::1', '3fff:1000::1', '64:ff9b:2::1', '2606:4700::1111'])
      expect(await isAllowedAddress(address, 'deployed'), address).toBe(true);
    for (const address of ['64:ff9b:1:ffff::1', '3fff:0fff:ffff::1', '5f00:ffff::1', '::ffff:0:0:1'])
      expect(await isAllowedAddress(address, 'deployed'), address).toBe(false);
    expect(await isAllowedAddress('::1', 'local')).toBe(true);
    expect(await isAllowedAddress('::1', 'deployed')).toBe(false);
  });
});
