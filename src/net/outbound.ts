/**
 * The one outbound HTTP client for addresses someone else chose: feeds
 * (operators and schedule providers name them) and Web Push endpoints
 * (players do). Every connection it opens, for the first request, each
 * redirect it follows and each reconnection, goes to an address the rule
 * admits (public-address.ts): a literal address is checked as written; a
 * name is resolved here, its addresses checked, and the socket connects to
 * the checked address itself, so nothing resolves the name again between
 * the check and the connection (DNS rebinding). A refused connection fails
 * the request before anything is sent; TLS still verifies the certificate
 * against the name.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { Agent, buildConnector } from 'undici';
import { lazy } from '../lazy.js';
import { isPublicAddress, nonPublicHost, NonPublicAddressError, normalizeAddress } from './public-address.js';

export interface OutboundGuard {
  /** Whether a connection may go to this address (default: the public-address rule). */
  allows?: (address: string) => boolean;
  /** Every address of a name (default: the system resolver, as `dns.lookup` with `all`). */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

const systemResolve = (hostname: string): Promise<LookupAddress[]> =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** The address a connection to `host` goes to, checked by the rule; NonPublicAddressError when the rule admits none. */
export async function guardedAddress(host: string, { allows = isPublicAddress, resolve = systemResolve }: OutboundGuard = {}): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (normalizeAddress(bare)) {
    if (!allows(bare))
      throw new NonPublicAddressError(bare, [bare], `${bare} is a local, private or reserved address; push endpoints and feeds must be on the public internet`);
    return bare;
  }
  const addresses = await resolve(bare);
  const usable = addresses.find((a) => allows(a.address));
  if (!usable)
    throw new NonPublicAddressError(
      bare,
      addresses.map((a) => a.address),
    );
  return usable.address;
}

/** An undici Agent whose every connection goes through `guardedAddress`. */
export async function createGuardedAgent(guard: OutboundGuard = {}): Promise<Agent> {
  const { Agent, buildConnector } = await import('undici');
  const connect = buildConnector({});
  const guarded: buildConnector.connector = (options, callback) => {
    guardedAddress(options.hostname, guard).then(
      // The name stays the TLS server name (SNI and the certificate check); only the address is pinned.
      (address) => connect({ ...options, hostname: address, servername: options.servername ?? servernameOf(options.hostname) }, callback),
      (err: Error) => callback(err, null),
    );
  };
  return new Agent({ connect: guarded });
}

const servernameOf = (hostname: string): string | undefined => (normalizeAddress(hostname.replace(/^\[|\]$/g, '')) ? undefined : hostname);

/** The process's guarded Agent: feeds and push deliveries share its connection pool. */
export const outboundAgent: () => Promise<Agent> = lazy(() => createGuardedAgent());

/**
 * A fetch through a guarded Agent: a URL whose host is a non-public address
 * or a name of this machine is refused before anything is sent (with the
 * reason), and every connection, redirects included, is guarded.
 */
export async function guardedFetch(guard?: OutboundGuard): Promise<typeof fetch> {
  const [{ fetch: undiciFetch }, dispatcher] = await Promise.all([import('undici'), guard ? createGuardedAgent(guard) : outboundAgent()]);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const refusal = nonPublicHost(url, guard?.allows);
    if (refusal) throw new NonPublicAddressError(url.hostname, [], `${refusal}; feeds must be on the public internet`);
    return undiciFetch(url, { ...(init as object), dispatcher } as never);
  }) as unknown as typeof fetch;
}

/** The feeds' fetch (FEED_ALLOW_PRIVATE_ADDRESSES=false): public addresses only, at every hop. */
export const publicOnlyFetch: () => Promise<typeof fetch> = lazy(() => guardedFetch());
