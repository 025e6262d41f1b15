/**
 * Web Push (RFC 8030) with message encryption (RFC 8291, aes128gcm) and VAPID
 * (RFC 8292), for `web` devices. The `web-push` package builds the request
 * (encrypted body, `Authorization: vapid t=<JWT>, k=<public key>`, TTL and
 * Urgency headers); we send it with fetch so that timeouts, redirects and the
 * endpoint's scheme stay under our control. Endpoints come from players, so
 * requests go through the guarded outbound client (src/net/outbound.ts): a
 * host written as a private address is refused, every connection goes to a
 * checked public address, and redirects are not followed.
 */
import type webpushModule from 'web-push';
import { lazy } from '../../../lazy.js';
import { outboundAgent } from '../../../net/outbound.js';
import { nonPublicHost } from '../../../net/public-address.js';
import type { VapidConfig } from '../../../config.js';
import { messagePayload, type PushProvider, type PushSendResult } from './provider.js';

export interface WebPushProviderOptions {
  vapid: VapidConfig;
  /** Accept `http:` endpoints and local addresses (loopback test receivers only). */
  allowHttpEndpoints?: boolean;
  /** Time allowed for the push service to answer. */
  timeoutMs?: number;
}

/**
 * Why this provider will not send to an endpoint, or null: a scheme other
 * than https (http too with allowHttp, for tests), or a host that is not on
 * the public internet (checked at registration and again before each send).
 */
export function endpointProblem(endpoint: string, allowHttp: boolean): { scheme: true } | { host: string } | null {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return { scheme: true };
  }
  if (u.protocol !== 'https:' && !(allowHttp && u.protocol === 'http:')) return { scheme: true };
  const host = allowHttp ? null : nonPublicHost(u);
  return host ? { host } : null;
}

export function createWebPushProvider({ vapid, allowHttpEndpoints = false, timeoutMs = 10_000 }: WebPushProviderOptions): PushProvider {
  const vapidDetails = { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey };
  // Test receivers listen on loopback; everywhere else only public addresses are reached.
  const http = lazy(async () => {
    const [{ Agent, fetch }, { default: webpush }] = await Promise.all([import('undici'), import('web-push')]);
    return { fetch, webpush, dispatcher: allowHttpEndpoints ? new Agent() : await outboundAgent() };
  });
  return {
    name: 'webpush',
    async send(device, message): Promise<PushSendResult> {
      if (device.platform !== 'web') {
        return {
          ok: false,
          skipped: true,
          error: `no ${device.platform} push provider configured (the webpush provider reaches web devices; FCM/APNs credentials are not configured)`,
        };
      }
      const subscription = device.subscription;
      if (!subscription) return { ok: false, error: 'the device has no Web Push subscription' };
      const problem = endpointProblem(subscription.endpoint, allowHttpEndpoints);
      if (problem)
        return {
          ok: false,
          error:
            'scheme' in problem ? 'the subscription endpoint is not an https URL' : `the subscription endpoint is not on the public internet: ${problem.host}`,
        };

      const { fetch, webpush, dispatcher } = await http();
      let details: ReturnType<typeof webpushModule.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: subscription.keys }, messagePayload(message), {
          vapidDetails,
          TTL: Math.max(0, Math.floor(message.ttlSeconds)),
          urgency: message.urgency,
        });
      } catch (err) {
        return { ok: false, error: `cannot build the Web Push request: ${(err as Error).message}` };
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) {
        // fetch computes the length of the body itself.
        if (name.toLowerCase() !== 'content-length' && value !== undefined) headers[name] = String(value);
      }
      try {
        const res = await fetch(details.endpoint, {
          method: 'POST',
          headers,
          body: details.body ?? undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
          dispatcher,
        });
        const text = (await readAtMost(res, 1024)).replace(/\s+/g, ' ').trim().slice(0, 200);
        if (res.status >= 200 && res.status < 300) return { ok: true, statusCode: res.status };
        return {
          ok: false,
          statusCode: res.status,
          error: `push service answered ${res.status}${text ? `: ${text}` : ''}`,
          // 404 and 410: the subscription expired or was unsubscribed (RFC 8030 §7.3).
          gone: res.status === 404 || res.status === 410,
          // Throttled or failing for a moment: worth one more try (RFC 8030 §8.4 asks for Retry-After on 429 and 503).
          ...(res.status === 429 || res.status >= 500 ? { retryAfterMs: retryAfterMs(res.headers.get('retry-after')) } : {}),
        };
      } catch (err) {
        const e = err as Error;
        if (e.name === 'TimeoutError') return { ok: false, error: `the push service did not answer within ${timeoutMs} ms`, retryAfterMs: DEFAULT_RETRY_MS };
        const cause = (e.cause as Error | undefined)?.message;
        return { ok: false, error: `request to the push service failed: ${e.message}${cause ? ` (${cause})` : ''}`, retryAfterMs: DEFAULT_RETRY_MS };
      }
    },
  };
}

/**
 * The start of a response body, at most `limit` bytes (the rest is not read:
 * a push service, or a host posing as one, cannot make this process buffer a
 * large or endlessly decompressing body).
 */
async function readAtMost(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body that fails midway: what was read is enough for the attempt record.
  } finally {
    void reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** The wait before the one retry of a transient failure, when the service names none. */
const DEFAULT_RETRY_MS = 1000;

/** A Retry-After value (seconds, or an HTTP date) in ms; the default when absent or unreadable. */
function retryAfterMs(header: string | null): number {
  if (!header) return DEFAULT_RETRY_MS;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? DEFAULT_RETRY_MS : Math.max(0, at - Date.now());
}
