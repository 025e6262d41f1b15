/**
 * The operator UI's client of the JSON API, typed from the contract
 * (generated/api-types.ts): a contract change that breaks the UI fails to
 * compile. The Bearer key comes from POST /admin/api-session with the session's
 * CSRF token (one exchange per page load, however many calls start at once),
 * and is renewed once when the API answers 401.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../../generated/api-types.js';

const csrfToken = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

/** Exchanges the admin session for a Bearer key (401: the session ended, back to the login page). */
async function exchangeSession(): Promise<string> {
  const res = await fetch('/admin/api-session', { method: 'POST', headers: { 'X-CSRF-Token': csrfToken() }, credentials: 'same-origin' });
  if (res.status === 401 || res.status === 403) {
    window.location.assign('/admin/login');
    throw new Error('signed out');
  }
  if (!res.ok) throw new ApiError(res.status, await detailOf(res));
  return ((await res.json()) as { api_key: string }).api_key;
}

let key: Promise<string> | null = null;

/** The Bearer key: one exchange, shared by every call (those made while it is under way too). */
function bearerKey(): Promise<string> {
  key ??= exchangeSession().catch((err: unknown) => {
    key = null;
    throw err;
  });
  return key;
}

/** A new key after a 401 with `used`: the calls that failed with the same key share one exchange. */
function renewedKey(used: Promise<string>): Promise<string> {
  if (key === used) key = null;
  return bearerKey();
}

const auth: Middleware = {
  async onRequest({ request }) {
    request.headers.set('Authorization', `Bearer ${await bearerKey()}`);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(auth);

/** An API failure, with the API's own wording. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly body?: unknown,
  ) {
    super(detail);
  }
}

type ValidationItem = { loc: (string | number)[]; msg: string };

/** The contract's error body as one readable text: the detail, or each 422 item as `loc: msg`. */
export function formatDetail(body: unknown, status: number): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return (detail as ValidationItem[]).map((d) => `${d.loc.join('.')}: ${d.msg}`).join('\n');
  return `request failed (${status})`;
}

async function detailOf(res: Response): Promise<string> {
  try {
    return formatDetail(await res.json(), res.status);
  } catch {
    return `request failed (${res.status})`;
  }
}

/**
 * Unwraps an openapi-fetch result: the data, or an ApiError with the API's
 * detail. A 401 renews the key once and retries.
 */
export async function unwrap<T>(call: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const used = bearerKey(); // the key the middleware sends
  let result = await call();
  if (result.response.status === 401) {
    await renewedKey(used);
    result = await call();
  }
  if (result.response.ok) return result.data as T;
  throw new ApiError(result.response.status, formatDetail(result.error, result.response.status), result.error);
}

/**
 * The operator view of matches. The API answers admins with it and everyone
 * else with the player view; the UI always calls with an admin's key, so a
 * player view means the key stopped being an admin's (a 403 elsewhere).
 */
export function operatorView<T extends { view: string }>(match: T): Extract<T, { view: 'operator' }> {
  if (match.view !== 'operator') throw new ApiError(403, "the API answered with the player view of a match: this key is not an admin's");
  return match as Extract<T, { view: 'operator' }>;
}

/** Raw authorized fetch for what openapi-fetch does not cover well (CSV downloads, uploads with progress). */
export async function authorizedFetch(input: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const used = bearerKey();
  headers.set('Authorization', `Bearer ${await used}`);
  let res = await fetch(input, { ...init, headers });
  if (res.status === 401) {
    headers.set('Authorization', `Bearer ${await renewedKey(used)}`);
    res = await fetch(input, { ...init, headers });
  }
  return res;
}

/**
 * Uploads a multipart form with progress (XMLHttpRequest reports upload progress; fetch does not).
 * `method` is POST unless given (PATCH for partial multipart updates).
 */
export function uploadWithProgress(
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  method: 'POST' | 'PATCH' | 'PUT' = 'POST',
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const send = async (retry: boolean) => {
      const used = bearerKey();
      const xhr = new XMLHttpRequest();
      xhr.open(method, url);
      xhr.setRequestHeader('Authorization', `Bearer ${await used}`);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onerror = () => reject(new Error('network error while uploading'));
      xhr.onload = async () => {
        if (xhr.status === 401 && retry) {
          // A failed key exchange rejects the upload (its error is shown), as does a failed retry.
          await renewedKey(used)
            .then(() => send(false))
            .catch(reject);
          return;
        }
        let body: unknown;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = xhr.responseText;
        }
        resolve({ status: xhr.status, body });
      };
      xhr.send(form);
    };
    // The key exchange can fail (the session endpoint answers 5xx, the network drops): say so, never hang.
    send(true).catch(reject);
  });
}

/** Saves a downloaded body as a file in the browser. */
export async function download(url: string, fallbackName: string): Promise<void> {
  const res = await authorizedFetch(url);
  if (!res.ok) throw new ApiError(res.status, await detailOf(res));
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const blob = await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
