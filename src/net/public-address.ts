/**
 * Outbound requests to addresses players choose (Web Push endpoints) must
 * not reach this service's own network: no loopback, private, link-local,
 * carrier-grade NAT, multicast, documentation or otherwise reserved address
 * (server-side request forgery). Names are resolved by a lookup that drops
 * such addresses, and the connection goes to the address that lookup chose,
 * so a name cannot resolve to a public address when checked and a private
 * one when connected (DNS rebinding).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { lazy } from '../lazy.js';

const blocked = new BlockList();
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
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True for an address on the public internet; false for local, private and reserved ones (and for anything that is not an IP). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms are judged by their IPv4 address.
  const mapped = /^::(?:ffff:(?:0:)?)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  if (/^::ffff:/i.test(address)) return false;
  return !blocked.check(address, 'ipv6');
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

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for sockets (net.connect's `lookup` option) that answers
 * only public addresses, or fails with NonPublicAddressError.
 */
export function publicLookup(hostname: string, options: { all?: boolean; family?: number | string } | number, callback: LookupCallback): void {
  const opts = typeof options === 'number' ? { family: options } : options;
  dnsLookup(hostname, { family: Number(opts.family) || 0, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const usable = addresses.filter((a) => isPublicAddress(a.address));
    if (!usable.length)
      return callback(
        new NonPublicAddressError(
          hostname,
          addresses.map((a) => a.address),
        ),
        '',
      );
    if (opts.all) return callback(null, usable);
    callback(null, usable[0]!.address, usable[0]!.family);
  });
}

/** The refusal of a URL whose host is written as a non-public IP address or names this machine; null when its host may be public. */
export function nonPublicHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host) ? null : `${host} is a local, private or reserved address`;
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal') || !name.includes('.')) {
    return `${host} is not a public host name`;
  }
  return null;
}

/**
 * A fetch that connects to public addresses only: a URL whose host is a
 * non-public address or name is refused before anything is sent, and a name
 * is resolved by `publicLookup` at every connection, so a feed whose name
 * later resolves to a private address (DNS rebinding) cannot reach it. Built
 * once per process: its listeners share one connection pool.
 */
export const publicOnlyFetch: () => Promise<typeof fetch> = lazy(async () => {
  const { Agent, fetch: undiciFetch } = await import('undici');
  const dispatcher = new Agent({ connect: { lookup: publicLookup as never } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const refusal = nonPublicHost(url);
    if (refusal) throw new NonPublicAddressError(url.hostname, [], `${refusal}; feeds must be on the public internet`);
    return undiciFetch(url, { ...(init as object), dispatcher } as never);
  }) as unknown as typeof fetch;
});
