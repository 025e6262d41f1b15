/**
 * The guarded outbound client (src/net/outbound.ts) that feeds and Web Push
 * deliveries use: every connection, each redirect hop included, goes to an
 * address the rule admits, and to the very address that was checked (a name
 * is not resolved again between the check and the connection).
 *
 * No address of this machine is public, so these tests give the client a
 * rule under which 127.0.0.2 stands for "a public host" and the rest of
 * loopback stays private: the rule itself is public-address.test.ts's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedAgent, guardedAddress, guardedFetch, type OutboundGuard } from '../../src/net/outbound.js';
import { isPublicAddress, NonPublicAddressError } from '../../src/net/public-address.js';

const PUBLIC_HERE = '127.0.0.2';
const allows = (address: string) => address === PUBLIC_HERE || isPublicAddress(address);

interface Host {
  server: Server;
  port: number;
  requests: string[];
}

/** A server on `address` answering with `answer` (a redirect when it returns a location). */
async function host(address: string, answer: (path: string) => string | null, port = 0): Promise<Host> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url!);
    const location = answer(req.url!);
    if (location) res.writeHead(302, { location }).end();
    else res.end(`from ${address}`);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, address, resolve));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

let internal: Host;
let publicHost: Host;
/** Where the "public" host redirects `/to?<url>`. */
const redirectTo = (target: string) => `http://${PUBLIC_HERE}:${publicHost.port}/to?${encodeURIComponent(target)}`;

beforeAll(async () => {
  internal = await host('127.0.0.1', () => null);
  // The same port on the "public" address: a connection that went to the wrong one of the two would be seen.
  publicHost = await host(PUBLIC_HERE, (path) => (path.startsWith('/to?') ? decodeURIComponent(path.slice(4)) : null), internal.port);
});
afterAll(async () => {
  for (const h of [internal, publicHost]) await new Promise((resolve) => h?.server.close(resolve));
});

const causeOf = (err: unknown) => ((err as Error).cause as Error | undefined) ?? (err as Error);

describe('the guarded outbound client', () => {
  it('fetches from an address the rule admits', async () => {
    const get = await guardedFetch({ allows });
    const res = await get(`http://${PUBLIC_HERE}:${publicHost.port}/feed`);
    expect(await res.text()).toBe(`from ${PUBLIC_HERE}`);
  });

  it.each([
    ['a loopback address', () => `http://127.0.0.1:${internal.port}/secret`],
    ['the cloud metadata address', () => `http://169.254.169.254/latest/meta-data`],
    ['loopback written IPv4-compatible', () => `http://[::127.0.0.1]:${internal.port}/secret`],
    ['loopback written IPv4-mapped', () => `http://[::ffff:127.0.0.1]:${internal.port}/secret`],
    ['loopback written as one number', () => `http://2130706433:${internal.port}/secret`],
    ['a name that resolves to loopback', () => `http://localhost:${internal.port}/secret`],
  ])('refuses a redirect to %s: the hop fails before anything is sent to it', async (_what, target) => {
    const before = internal.requests.length;
    const get = await guardedFetch({ allows });
    const failure = await get(redirectTo(target())).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(causeOf(failure)).toBeInstanceOf(NonPublicAddressError);
    expect(causeOf(failure).message).toMatch(/local, private or reserved address/);
    expect(internal.requests.length).toBe(before);
  });

  it('the same redirect, without the guard, reaches the internal host: the refusal above has teeth', async () => {
    const plain = new Agent();
    try {
      const res = await fetch(redirectTo(`http://127.0.0.1:${internal.port}/secret`), { dispatcher: plain });
      expect(await res.text()).toBe('from 127.0.0.1');
      expect(internal.requests).toContain('/secret');
    } finally {
      await plain.close();
    }
  });

  it('connects to the address it checked: a name with a private and a public address reaches only the public one', async () => {
    const before = internal.requests.length;
    const guard: OutboundGuard = {
      allows,
      resolve: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: PUBLIC_HERE, family: 4 },
      ],
    };
    const agent = await createGuardedAgent(guard);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`http://feeds.example.com:${internal.port}/feed`, { dispatcher: agent });
        expect(await res.text()).toBe(`from ${PUBLIC_HERE}`);
      }
      expect(internal.requests.length).toBe(before);
    } finally {
      await agent.close();
    }
  });

  it('checks the name again at every connection: one that now resolves only to a private address is refused (DNS rebinding)', async () => {
    const answers = [[PUBLIC_HERE], ['127.0.0.1']];
    const guard: OutboundGuard = { allows, resolve: async () => (answers.shift() ?? ['127.0.0.1']).map((address) => ({ address, family: 4 })) };
    expect(await guardedAddress('feeds.example.com', guard)).toBe(PUBLIC_HERE);
    await expect(guardedAddress('feeds.example.com', guard)).rejects.toThrow(
      /^feeds\.example\.com resolves only to local, private or reserved addresses \(127\.0\.0\.1\)/,
    );
    // With the real resolver and rule: this machine's names are not public.
    await expect(guardedAddress('localhost')).rejects.toBeInstanceOf(NonPublicAddressError);
  });

  it('refuses a URL whose host is written as a private address, before connecting', async () => {
    const get = await guardedFetch();
    await expect(get(`http://[::a9fe:a9fe]/latest`)).rejects.toThrow(
      /::a9fe:a9fe is a local, private or reserved address; feeds must be on the public internet/,
    );
    await expect(get(`http://localhost:${internal.port}/x`)).rejects.toThrow(/localhost is not a public host name/);
  });
});
