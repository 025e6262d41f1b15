/**
 * Outbound requests to addresses others chose reach only public addresses
 * (src/net/public-address.ts): the address classifier, every form of an
 * address it normalizes, and the host check of a URL. The client that
 * applies it to every connection: outbound.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { isPublicAddress, nonPublicHost, normalizeAddress } from '../../src/net/public-address.js';

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

/**
 * Every way of writing an address that a URL, a resolver or a socket takes,
 * normalized before the rule: an address hidden in another form is judged as
 * the address it is.
 */
describe('address forms, normalized before the rule', () => {
  // [written form, what it stands for (null: not an address), public?]
  const forms: [string, string | null, boolean][] = [
    // IPv4, four decimal parts and the other forms resolvers take
    ['127.0.0.1', '127.0.0.1', false],
    ['2130706433', '127.0.0.1', false],
    ['0x7f000001', '127.0.0.1', false],
    ['0x7f.1', '127.0.0.1', false],
    ['0177.0.0.1', '127.0.0.1', false],
    ['127.1', '127.0.0.1', false],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254', false],
    ['2852039166', '169.254.169.254', false],
    ['0x0a000001', '10.0.0.1', false],
    ['010.0.0.1', '8.0.0.1', true],
    ['134744072', '8.8.8.8', true],
    // IPv4-compatible ::/96 (deprecated): refused whatever it carries
    ['::127.0.0.1', '0:0:0:0:0:0:7f00:1', false],
    ['::7f00:1', '0:0:0:0:0:0:7f00:1', false],
    ['::a9fe:a9fe', '0:0:0:0:0:0:a9fe:a9fe', false],
    ['::169.254.169.254', '0:0:0:0:0:0:a9fe:a9fe', false],
    ['::8.8.8.8', '0:0:0:0:0:0:808:808', false],
    // IPv4-mapped and IPv4-translated: the IPv4 address they carry
    ['::ffff:127.0.0.1', '127.0.0.1', false],
    ['::ffff:7f00:1', '127.0.0.1', false],
    ['0:0:0:0:0:ffff:a9fe:a9fe', '169.254.169.254', false],
    ['::ffff:0:7f00:1', '127.0.0.1', false],
    ['::ffff:0:a00:1', '10.0.0.1', false],
    ['::ffff:8.8.8.8', '8.8.8.8', true],
    // NAT64, well-known prefix: the IPv4 address it carries; the local-use prefix: refused
    ['64:ff9b::7f00:1', '127.0.0.1', false],
    ['64:ff9b::169.254.169.254', '169.254.169.254', false],
    ['64:ff9b::808:808', '8.8.8.8', true],
    ['64:ff9b:1::808:808', '64:ff9b:1:0:0:0:808:808', false],
    // 6to4 and Teredo relay to an IPv4 address: refused whatever they carry
    ['2002:7f00:1::', '2002:7f00:1:0:0:0:0:0', false],
    ['2002:a9fe:a9fe::1', '2002:a9fe:a9fe:0:0:0:0:1', false],
    ['2002:808:808::1', '2002:808:808:0:0:0:0:1', false],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:4136:e378:8000:63bf:80ff:fffe', false],
    // other IPv6 outside global unicast, or reserved within it
    ['::', '0:0:0:0:0:0:0:0', false],
    ['::1', '0:0:0:0:0:0:0:1', false],
    ['0:0:0:0:0:0:0:1', '0:0:0:0:0:0:0:1', false],
    ['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1', false],
    ['fd00:ec2::254', 'fd00:ec2:0:0:0:0:0:254', false],
    ['100::1', '100:0:0:0:0:0:0:1', false],
    ['ff02::1', 'ff02:0:0:0:0:0:0:1', false],
    ['2001:db8::1', '2001:db8:0:0:0:0:0:1', false],
    ['3fff::1', '3fff:0:0:0:0:0:0:1', false],
    ['2606:4700:4700::1111', '2606:4700:4700:0:0:0:0:1111', true],
    ['2A00:1450:4001:80B::200E', '2a00:1450:4001:80b:0:0:0:200e', true],
    // not addresses
    ['localhost', null, false],
    ['1.2.3.4.5', null, false],
    ['', null, false],
  ];

  it.each(forms)('%s stands for %s (public: %s)', (written, normal, isPublic) => {
    expect(normalizeAddress(written)?.address ?? null).toBe(normal);
    expect(isPublicAddress(written)).toBe(isPublic);
  });

  // What a URL's host becomes (the WHATWG parser writes IPv4 in four decimal parts and IPv6 in hexadecimal) is judged the same way.
  const urls: [string, RegExp | null][] = [
    ['http://[::127.0.0.1]/feed', /^::7f00:1 is a local, private or reserved address$/],
    ['https://[::a9fe:a9fe]/push', /^::a9fe:a9fe is a local, private or reserved address$/],
    ['http://[::ffff:169.254.169.254]/latest', /^::ffff:a9fe:a9fe \(169\.254\.169\.254\) is a local, private or reserved address$/],
    ['http://[64:ff9b::127.0.0.1]/', /^64:ff9b::7f00:1 \(127\.0\.0\.1\) is a local/],
    ['http://[2002:7f00:1::]/', /is a local, private or reserved address/],
    ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', /is a local, private or reserved address/],
    ['http://2130706433/', /^127\.0\.0\.1 is a local/],
    ['http://0x7f.1/', /^127\.0\.0\.1 is a local/],
    ['http://0251.0376.0251.0376/', /^169\.254\.169\.254 is a local/],
    ['http://[64:ff9b::8.8.8.8]/', null],
    ['https://[2606:4700:4700::1111]/', null],
    ['http://134744072/', null],
  ];
  it.each(urls)('the host of %s', (url, refusal) => {
    const found = nonPublicHost(new URL(url));
    if (refusal === null) expect(found).toBeNull();
    else expect(found).toMatch(refusal);
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
