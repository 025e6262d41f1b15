/**
 * Text that is not UTF-8, wherever a request carries it: a JSON body, a form
 * (url-encoded or multipart), an uploaded text file, a query string (a path
 * parameter is decoded in app.ts). Every decoder the service would otherwise
 * use replaces such bytes with U+FFFD and goes on, so a name sent as the
 * bytes `Caf\xE9` was stored as `Caf\uFFFD`, while the same mistake spelled
 * as a JSON escape (`"\ud800"`, an unpaired surrogate) was refused: one rule
 * now, 422 with the location of the text.
 */
import { randomUUID } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { ValidationIssue } from '../errors.js';

/** The 422 issue of text that is not UTF-8 in a body, a form field or a file. */
export const utf8Issue = (loc: (string | number)[]): ValidationIssue => ({ loc, msg: 'not valid UTF-8 text', type: 'utf8_invalid' });
/** The 422 issue of a query or path parameter whose percent-escapes are not UTF-8 (the path's own, in app.ts). */
export const percentIssue = (loc: (string | number)[]): ValidationIssue => ({ loc, msg: 'not valid percent-encoded UTF-8', type: 'percent_encoding' });

const isContinuation = (b: number | undefined) => b !== undefined && b >= 0x80 && b <= 0xbf;

/** Offset of the first byte that does not start a valid UTF-8 sequence (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF); -1 when there is none. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const [length, low, high] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : b === 0xed
            ? [3, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [3, 0x80, 0xbf]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b === 0xf4
                  ? [4, 0x80, 0x8f]
                  : b >= 0xf1 && b <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
    const second = bytes[i + 1];
    if (!length || second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k++) if (!isContinuation(bytes[i + k])) return i;
    i += length;
  }
  return -1;
}

/**
 * Where in a JSON body the first bytes that are not UTF-8 are: the location
 * of the string (or object key) holding them, `[]` when they are outside any
 * string (the body is then not JSON either) or it cannot be told.
 */
export function locateInvalidUtf8InJson(bytes: Buffer, offset: number): (string | number)[] {
  // The offending byte becomes a marker no text holds; any later bad bytes read as U+FFFD.
  const marker = `\u{10FFFD}${randomUUID()}`;
  const patched = Buffer.concat([bytes.subarray(0, offset), Buffer.from(marker), bytes.subarray(offset + 1)]);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(patched));
  } catch {
    return [];
  }
  const stack: { value: unknown; loc: (string | number)[] }[] = [{ value, loc: [] }];
  while (stack.length) {
    const { value: v, loc } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(marker)) return loc;
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    for (const [key, item] of Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v)) {
      if (typeof key === 'string' && key.includes(marker)) return [...loc, key.replace(marker, '\uFFFD')];
      stack.push({ value: item, loc: [...loc, key] });
    }
  }
  return [];
}

/** The bytes of URL-encoded text (`+` a space, `%XX` a byte; anything else as it is). */
function percentDecode(raw: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === 0x25 /* % */ && i + 2 < raw.length && isHex(raw[i + 1]) && isHex(raw[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(raw[i + 1]!, raw[i + 2]!), 16);
      i += 2;
    } else out[n++] = c === 0x2b /* + */ ? 0x20 : c;
  }
  return out.subarray(0, n);
}
const isHex = (c: number | undefined) => c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));

/**
 * The parameters of URL-encoded text (a query string, a form body) whose name
 * or value is not UTF-8 once its escapes are decoded: one issue each, at
 * `[root, name]` (the name as decoded, U+FFFD where its own bytes were bad).
 */
export function urlEncodedProblems(raw: Uint8Array, root: string, issue: (loc: (string | number)[]) => ValidationIssue): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  let start = 0;
  for (let i = 0; i <= raw.length; i++) {
    if (i < raw.length && raw[i] !== 0x26 /* & */) continue;
    const pair = raw.subarray(start, i);
    start = i + 1;
    if (!pair.length) continue;
    const eq = pair.indexOf(0x3d /* = */);
    const name = percentDecode(eq < 0 ? pair : pair.subarray(0, eq));
    const value = eq < 0 ? Buffer.alloc(0) : percentDecode(pair.subarray(eq + 1));
    if (!isUtf8(name) || !isUtf8(value)) issues.push(issue([root, new TextDecoder().decode(name)]));
  }
  return issues;
}
