/**
 * Regular expressions of definitions (JSONata regex literals) run on V8's
 * backtracking engine, synchronously: a pattern like /(a+)+$/ can take
 * minutes on a short text, and no step or time budget can interrupt it. So
 * patterns are checked before they run: no repetition of a group that itself
 * repeats or alternates (the shape of exponential backtracking), no
 * backreferences and no lookaround; and they only run on texts of bounded
 * length, which keeps the remaining (polynomial) cases short.
 */

export const MAX_REGEX_SUBJECT = 10_000;

interface Quantifier {
  length: number;
  /** Can match its atom more than once. */
  repeats: boolean;
}

function quantifierAt(source: string, i: number): Quantifier | null {
  const c = source[i];
  if (c === '*' || c === '+') return { length: 1, repeats: true };
  if (c === '?') return { length: 1, repeats: false };
  if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
    if (!m) return null;
    const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
    return { length: m[0].length, repeats: max > 1 };
  }
  return null;
}

/** Why a pattern may backtrack catastrophically, or null when it is acceptable. */
export function unsafeRegexReason(source: string): string | null {
  // One frame per open group: whether it contains a quantifier or an alternation.
  const stack: { ambiguous: boolean }[] = [{ ambiguous: false }];
  const top = () => stack[stack.length - 1]!;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    let closed: { ambiguous: boolean } | null = null;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<')) return 'backreferences are not allowed';
      i += 2;
    } else if (c === '[') {
      i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      if (/^\(\?<?[=!]/.test(source.slice(i, i + 4))) return 'lookahead and lookbehind are not allowed';
      stack.push({ ambiguous: false });
      i++;
      if (source[i] === '?' && source[i + 1] === ':') i += 2;
      else if (source[i] === '?' && source[i + 1] === '<') {
        const end = source.indexOf('>', i);
        i = end < 0 ? source.length : end + 1;
      }
      continue;
    } else if (c === ')') {
      if (stack.length > 1) closed = stack.pop()!;
      i++;
    } else if (c === '|') {
      top().ambiguous = true;
      i++;
      continue;
    } else {
      i++;
    }
    const q = quantifierAt(source, i);
    if (q) {
      if (closed?.ambiguous && q.repeats) {
        return 'a repeated group must not contain a quantifier or an alternation (nested repetition can take exponential time)';
      }
      top().ambiguous = true;
      i += q.length;
      if (source[i] === '?') i++;
    } else if (closed?.ambiguous) {
      top().ambiguous = true;
    }
  }
  return null;
}

/** The RegExp class JSONata uses for definitions: refuses unsafe patterns and over-long texts. */
export class SafeRegExp extends RegExp {
  constructor(pattern: RegExp | string, flags?: string) {
    const source = typeof pattern === 'string' ? pattern : pattern.source;
    const reason = unsafeRegexReason(source);
    if (reason) throw new Error(`regular expression /${source}/ refused: ${reason}`);
    super(pattern, flags);
  }

  override exec(text: string): RegExpExecArray | null {
    if (text.length > MAX_REGEX_SUBJECT) throw new Error(`regular expressions run on texts of at most ${MAX_REGEX_SUBJECT} characters (got ${text.length})`);
    return super.exec(text);
  }
}

/** The first refused regex literal of a parsed JSONata expression, as an error message. */
export function findUnsafeRegexLiteral(ast: unknown): string | null {
  const seen = new Set<unknown>();
  const visit = (node: unknown): string | null => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return null;
    seen.add(node);
    if (node instanceof RegExp) {
      const reason = unsafeRegexReason(node.source);
      return reason ? `regular expression /${node.source}/ refused: ${reason}` : null;
    }
    for (const value of Array.isArray(node) ? node : Object.values(node)) {
      const found = visit(value);
      if (found) return found;
    }
    return null;
  };
  return visit(ast);
}
