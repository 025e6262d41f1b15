/**
 * Push test helpers: Web Push subscriptions built from keys the test holds,
 * and a push service on loopback that checks what a real one would (the
 * VAPID JWT, RFC 8292) and decrypts the aes128gcm payload (RFC 8188/8291)
 * with the subscription's private key, using node:crypto only.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp, TestUser } from './test-app.js';

/** A browser's side of a subscription: its P-256 key pair and auth secret. */
export interface SubscriptionKeys {
  ecdh: ECDH;
  p256dh: string;
  auth: string;
  authSecret: Buffer;
}

export function subscriptionKeys(): SubscriptionKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url'), authSecret };
}

export function webSubscription(endpoint: string, keys: SubscriptionKeys = subscriptionKeys()) {
  return { endpoint, expiration_time: null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** Registers a web device through the API; returns the keys to decrypt what it receives. */
export async function registerWebDevice(
  app: TestApp,
  user: TestUser,
  deviceId: string,
  endpoint = `https://push.example.com/send/${deviceId}`,
): Promise<SubscriptionKeys> {
  const keys = subscriptionKeys();
  const res = await app.request('POST', '/api/users/me/devices', {
    token: user.token,
    body: { device_id: deviceId, platform: 'web', subscription: webSubscription(endpoint, keys), app_version: '1.0.0' },
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`device registration failed: ${res.status} ${res.text}`);
  return keys;
}

export async function registerTokenDevice(app: TestApp, user: TestUser, deviceId: string, platform: 'ios' | 'android' = 'ios'): Promise<void> {
  const res = await app.request('POST', '/api/users/me/devices', { token: user.token, body: { device_id: deviceId, platform, token: `token-${deviceId}` } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`device registration failed: ${res.status} ${res.text}`);
}

/** RFC 8291 §3.4 and RFC 8188 §2: the plaintext of an aes128gcm Web Push message (single record). */
export function decryptAes128gcm(body: Buffer, keys: SubscriptionKeys): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen); // the keyid is the sender's ephemeral public key
  const record = body.subarray(21 + idlen);
  if (record.length > rs) throw new Error('more than one record');
  const uaPublic = keys.ecdh.getPublicKey();
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // Padding: the delimiter 0x02 (last record) followed by zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 0x02) throw new Error('bad padding delimiter');
  return padded.subarray(0, end).toString('utf8');
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`; the JWT must be
 * ES256-signed by the key in `k`, which must be the expected VAPID key.
 */
export function verifyVapid(authorization: string | undefined, expectedPublicKey: string): VapidClaims {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) throw new Error(`not a VAPID authorization header: ${authorization}`);
  const [, jwt, k] = m;
  if (k !== expectedPublicKey) throw new Error('k is not the VAPID public key');
  const [h, p, s] = jwt!.split('.');
  const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
  if (header.alg !== 'ES256' || header.typ !== 'JWT') throw new Error(`bad JWT header ${JSON.stringify(header)}`);
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s!, 'base64url'));
  if (!ok) throw new Error('the VAPID JWT signature does not verify');
  return JSON.parse(Buffer.from(p!, 'base64url').toString()) as VapidClaims;
}

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on loopback: records each POST and answers with `status(path)`; `hang` paths never answer. */
export async function startPushReceiver(
  status: (path: string) => number | 'hang' = () => 201,
): Promise<{ origin: string; received: ReceivedPush[]; close(): Promise<void>; server: Server }> {
  const received: ReceivedPush[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const s = status(req.url ?? '');
      if (s === 'hang') return;
      res.writeHead(s, { 'content-type': 'text/plain' });
      res.end(s >= 400 ? `status ${s}` : '');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
