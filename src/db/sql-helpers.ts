import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * `column = any(ids)` with the ids bound as ONE text parameter however many
 * there are (`in (...)` binds one each, and PostgreSQL stops at 65,535).
 */
export const anyUuid = (column: SQLWrapper, ids: readonly string[]): SQL => sql`${column} = any(string_to_array(${ids.join(',')}, ',')::uuid[])`;

/** `%q%` for ILIKE with the pattern characters of q escaped. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Location of the first string (or object key) in `value` holding U+0000,
 * which PostgreSQL cannot store in text or jsonb; undefined when there is none.
 */
export function findNulCharacter(value: unknown, loc: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? loc : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNulCharacter(item, [...loc, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...loc, key];
      const found = findNulCharacter(item, [...loc, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** A location as text: `choices[1].label_template`. */
export const formatLocation = (loc: (string | number)[]) => loc.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
