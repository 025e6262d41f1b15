/**
 * The address rule of outbound requests to addresses someone else chose
 * (feeds, Web Push endpoints): they must not reach this service's own
 * network, no loopback, private, link-local, carrier-grade NAT, multicast,
 * documentation or otherwise reserved address (server-side request
 * forgery), in whatever form the address is written. outbound.ts applies it
 * to every connection.
 */
import { BlockList } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IPv4 ranges that are not the public internet (RFC 6890 and its successors). */
const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

/**
 * IPv6: only global unicast (2000::/3) is public, less what in it is not:
 * Teredo and the other IETF protocol assignments (2001::/23), documentation
 * (2001:db8::/32, 3fff::/20) and 6to4 (2002::/16). Teredo and 6to4 relay to
 * an IPv4 address inside them, and no public service needs them: refused
 * whatever they carry. Everything outside 2000::/3 is refused too: loopback,
 * unspecified, IPv4-compatible (::/96), link and site local, unique local,
 * multicast, discard, the local-use NAT64 prefix; the forms that carry an
 * IPv4 address meant to be reached (IPv4-mapped, IPv4-translated, NAT64's
 * well-known prefix) are judged by that address first.
 */
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');
const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

/** IPv6 forms that carry an IPv4 address to reach: IPv4-mapped, IPv4-translated (RFC 6145), NAT64's well-known prefix (RFC 6052). */
const CARRIES_IPV4 = ['::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/**
 * An IPv6 literal whose last 32 bits are written as an IPv4 address, with
 * them in hexadecimal: ipaddr.js reads `::a.b.c.d` as IPv4-mapped, where it
 * is IPv4-compatible (`::ffff:a.b.c.d` is mapped).
 */
function dottedTailAsHex(text: string): string {
  const m = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)(%.*)?$/.exec(text);
  if (!m) return text;
  const [a, b, c, d] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}${m[6] ?? ''}`;
}

/**
 * The address a literal stands for, in one normal form, or null when it is
 * not an address: IPv4 written in any form a resolver takes (decimal, octal,
 * hexadecimal, fewer than four parts: `2130706433`, `0177.1`, `0x7f.0.0.1`)
 * as four decimal parts; an IPv6 address that carries an IPv4 one to reach
 * (IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`, NAT64
 * `64:ff9b::/96`) as that IPv4 address; other IPv6 in its canonical form,
 * without a zone.
 */
export function normalizeAddress(literal: string): { family: 4 | 6; address: string } | null {
  const text = literal.replace(/^\[|\]$/g, '');
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    if (ipaddr.IPv4.isValid(text)) parsed = ipaddr.IPv4.parse(text);
    else if (ipaddr.IPv6.isValid(text)) parsed = ipaddr.IPv6.parse(dottedTailAsHex(text));
    else return null;
  } catch {
    return null;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (CARRIES_IPV4.some((prefix) => v6.match(prefix))) {
      const [a, b] = v6.parts.slice(6) as [number, number];
      return { family: 4, address: `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}` };
    }
    return { family: 6, address: new ipaddr.IPv6(v6.parts).toNormalizedString() };
  }
  return { family: 4, address: parsed.toString() };
}

/** True for an address on the public internet; false for local, private and reserved ones (and for anything that is not an IP), in whatever form it is written. */
export function isPublicAddress(address: string): boolean {
  const normal = normalizeAddress(address);
  if (!normal) return false;
  if (normal.family === 4) return !blockedV4.check(normal.address, 'ipv4');
  return globalUnicastV6.check(normal.address, 'ipv6') && !blockedV6.check(normal.address, 'ipv6');
}

export class NonPublicAddressError extends Error {
  readonly code = 'ENOTPUBLIC';
  constructor(host: string, addresses: string[], message?: string) {
    super(
      message ??
        `${host} resolves only to local, private or reserved addresses (${addresses.join(', ') || 'none'}); push endpoints and feeds must be on the public internet`,
    );
  }
}

/** The refusal of a URL whose host is written as a non-public IP address or names this machine; null when its host may be public. */
export function nonPublicHost(url: URL, allows: (address: string) => boolean = isPublicAddress): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const normal = normalizeAddress(host);
  if (normal) {
    if (allows(host)) return null;
    return `${host}${normal.family === 4 && normal.address !== host ? ` (${normal.address})` : ''} is a local, private or reserved address`;
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal') || !name.includes('.')) {
    return `${host} is not a public host name`;
  }
  return null;
}
