/** docs/vocabulary.md lists exactly the event types the sample catalog serves, sport by sport. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMON_EVENT_TYPES } from '../../../src/domain/sports/events.js';
import { sportCatalog } from '../../../src/domain/sports/sports.js';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/vocabulary.md'), 'utf8');
const sections = new Map(
  doc
    .split(/^## /m)
    .slice(1)
    .map((s) => [s.split('\n')[0]!, s] as const),
);
const SECTION = {
  football: 'Football',
  american_football: 'American football',
  basketball: 'Basketball',
  baseball: 'Baseball',
  ice_hockey: 'Ice hockey',
} as const;

describe('docs/vocabulary.md', () => {
  for (const [sport, title] of Object.entries(SECTION) as [keyof typeof SECTION, string][]) {
    it(`lists every ${sport} event type`, () => {
      const section = [...sections].find(([heading]) => heading.startsWith(title))?.[1];
      expect(section, `a section '## ${title}'`).toBeDefined();
      const named = new Set([...section!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
      const common = new Set<string>(COMMON_EVENT_TYPES);
      const missing = sportCatalog(sport)
        .map((t) => t.type)
        .filter((t) => !named.has(t) && !(sport !== 'football' && common.has(t)));
      expect(missing).toEqual([]);
    });
  }

  it('names no football type in its table that the catalog lacks', () => {
    const table = sections.get('Football (`wc`, `mls`)')!;
    const firstColumn = [...table.matchAll(/^\| ((?:`[a-z_]+`(?:, )?)+) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([a-z_]+)`/g)].map((x) => x[1]!));
    const known = new Set(sportCatalog('football').map((t) => t.type));
    expect(firstColumn.length).toBeGreaterThan(15);
    expect(firstColumn.filter((t) => !known.has(t))).toEqual([]);
  });
});
