/**
 * A reply body a handler returns again and again as the same object (a list
 * kept in the process until it changes): frozen, so nothing alters what later
 * requests get, and serialized once; the reply is written from that text
 * (src/http/app.ts), byte for byte what JSON.stringify makes of the body.
 */
const texts = new WeakMap<object, string>();

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

export function reusedBody<T extends object>(body: T): T {
  texts.set(body, JSON.stringify(body));
  deepFreeze(body);
  return body;
}

/** The JSON text of a body made by reusedBody; undefined for any other. */
export const reusedText = (body: unknown): string | undefined => (typeof body === 'object' && body !== null ? texts.get(body) : undefined);
