import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * `column = any(ids)` with the ids bound as ONE text parameter however many
 * there are (`in (...)` binds one each, and PostgreSQL stops at 65,535).
 */
export const anyUuid = (column: SQLWrapper, ids: readonly string[]): SQL => sql`${column} = any(string_to_array(${ids.join(',')}, ',')::uuid[])`;

/** Rows per multi-row INSERT: far below PostgreSQL's 65,535 bind parameters for any of our tables. */
export const INSERT_CHUNK = 1000;

/** `items` in consecutive slices of at most `size` (one statement each). */
export function* chunks<T>(items: readonly T[], size = INSERT_CHUNK): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * A `created_at` for the n-th row of a batch written in one go: the write's
 * time plus n microseconds, so listings by `created_at` keep the batch's order.
 */
export const nowPlusMicros = (n: number): SQL => sql`now() + ${sql.raw(String(n))} * interval '1 microsecond'`;

/** `%q%` for ILIKE with the pattern characters of q escaped. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** How deep a request's JSON may nest (arrays and objects); deeper is refused with 422. */
export const MAX_JSON_DEPTH = 64;

/** What findJsonProblem finds: text PostgreSQL cannot store (or would silently alter), or nesting past the bound. */
export type JsonProblem = 'nul_character' | 'lone_surrogate' | 'too_deep';

/**
 * Why a text cannot be stored as sent: U+0000, which PostgreSQL refuses in
 * text and jsonb, or an unpaired UTF-16 surrogate, which is no character at
 * all (jsonb refuses it, text columns would store U+FFFD in its place).
 */
export function textProblem(text: string): 'nul_character' | 'lone_surrogate' | undefined {
  if (text.includes('\u0000')) return 'nul_character';
  if (!text.isWellFormed()) return 'lone_surrogate';
  return undefined;
}

/**
 * Walks `value` without recursion (a deeply nested body cannot exhaust the
 * stack) and returns the first problem: a string or object key holding
 * U+0000 or an unpaired surrogate (textProblem), or nesting deeper than
 * `maxDepth`. Undefined when there is none.
 */
export function findJsonProblem(
  value: unknown,
  root: (string | number)[] = [],
  maxDepth = MAX_JSON_DEPTH,
): { loc: (string | number)[]; problem: JsonProblem } | undefined {
  const stack: { value: unknown; loc: (string | number)[]; depth: number }[] = [{ value, loc: root, depth: 0 }];
  while (stack.length) {
    const { value: v, loc, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { loc, problem };
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (depth >= maxDepth) return { loc, problem: 'too_deep' };
    // Pushed in reverse so the first problem in document order is found first.
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const problem = typeof key === 'string' ? textProblem(key) : undefined;
      if (problem) return { loc: [...loc, key], problem };
      stack.push({ value: item, loc: [...loc, key], depth: depth + 1 });
    }
  }
  return undefined;
}

/** The 422 message of each problem findJsonProblem reports. */
export const JSON_PROBLEM_MESSAGES: Record<JsonProblem, string> = {
  nul_character: 'text must not contain the NUL character (U+0000)',
  lone_surrogate: 'text must not contain an unpaired UTF-16 surrogate',
  too_deep: `nested more than ${MAX_JSON_DEPTH} levels deep`,
};

/** Location of the first string (or object key) in `value` holding U+0000; undefined when there is none. */
export function findNulCharacter(value: unknown, loc: (string | number)[] = []): (string | number)[] | undefined {
  const found = findJsonProblem(value, loc, Number.POSITIVE_INFINITY);
  return found?.problem === 'nul_character' ? found.loc : undefined;
}

/** A location as text: `choices[1].label_template`. */
export const formatLocation = (loc: (string | number)[]) => loc.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
