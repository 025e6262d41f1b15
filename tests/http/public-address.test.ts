/**
 * Outbound requests to player-chosen endpoints reach only public addresses
 * (src/net/public-address.ts): the address classifier, the host check, and
 * the lookup a connection resolves names with.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, nonPublicHost, NonPublicAddressError, publicLookup } from '../../src/net/public-address.js';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, shared, multicast, documentation and reserved addresses, in both families', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '192.0.2.7',
      '198.51.100.1',
      '203.0.113.9',
      '198.18.0.1',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      'not an address',
      'localhost',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('admits public addresses', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '192.169.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe('nonPublicHost', () => {
  it('names what is wrong with a URL whose host is a private address or this machine, and passes public names', () => {
    expect(nonPublicHost(new URL('https://10.0.0.5/push'))).toBe('10.0.0.5 is a local, private or reserved address');
    expect(nonPublicHost(new URL('https://[::1]:8443/push'))).toBe('::1 is a local, private or reserved address');
    expect(nonPublicHost(new URL('https://169.254.169.254/latest/meta-data'))).toMatch(/private or reserved/);
    for (const host of ['localhost', 'api.localhost', 'printer.local', 'metadata.google.internal', 'intranet']) {
      expect(nonPublicHost(new URL(`https://${host}/x`)), host).toBe(`${host} is not a public host name`);
    }
    expect(nonPublicHost(new URL('https://fcm.googleapis.com/fcm/send/abc'))).toBeNull();
    expect(nonPublicHost(new URL('https://8.8.8.8/x'))).toBeNull();
  });
});

describe('publicLookup', () => {
  it('fails for a name that resolves only to local addresses, so a connection never reaches them', async () => {
    const error = await new Promise<Error | null>((resolve) => publicLookup('localhost', { all: true }, (err) => resolve(err)));
    expect(error).toBeInstanceOf(NonPublicAddressError);
    expect(error!.message).toMatch(/^localhost resolves only to local, private or reserved addresses \(.*127\.0\.0\.1/);

    // The same lookup on a connection: the request to a server on loopback fails before it connects.
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ connect: { lookup: publicLookup as never } });
    try {
      const { port } = server.address() as AddressInfo;
      const failure = await fetch(`http://localhost:${port}/`, { dispatcher: agent }).catch((err: Error) => err);
      expect(failure).toBeInstanceOf(Error);
      expect(((failure as Error).cause as Error).message).toMatch(/resolves only to local, private or reserved addresses/);
      expect(requests).toBe(0);
      // Without the guard the same request goes through: the check above has teeth.
      expect(await (await fetch(`http://localhost:${port}/`)).text()).toBe('ok');
      expect(requests).toBe(1);
    } finally {
      await agent.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
