/**
 * The catalogue of domain events (src/events/): every reaction registered in
 * one file, checked exhaustively by the type checker, and no reaction left
 * reading SQL text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WHERE, type LocalEventType } from '../../src/events/catalogue.js';
import type { Reactions } from '../../src/events/dispatcher.js';
import { reactions } from '../../src/events/reactions.js';

const SRC = path.resolve(import.meta.dirname, '../../src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );

describe('the catalogue of domain events', () => {
  it('is handled exhaustively: an event left out, or listed with no reaction, fails the type check', () => {
    const table = {} as Reactions;
    const { userChanged: _left, ...withoutOne } = table.local ?? ({} as Reactions['local']);
    // @ts-expect-error userChanged has no entry
    const _incomplete: Reactions['local'] = withoutOne;
    // @ts-expect-error an event nobody reacts to has no place in the catalogue
    const _empty: Reactions['local'] = { ...table.local, settled: [] };
    // @ts-expect-error an event the catalogue does not declare
    const _unknown: Reactions['local'] = { ...table.local, somethingNew: [() => undefined] };
    // @ts-expect-error a bus kind left out
    const _noBus: Reactions['bus'] = { ...table.bus, resync: undefined };
    expect([_incomplete, _empty, _unknown, _noBus]).toHaveLength(4);
  });

  it('registers a reaction for every event the catalogue declares, in one file', () => {
    const noop = () => undefined;
    const registered = reactions({
      logger: { warn: noop } as never,
      bus: { publish: async () => undefined, announcesTableChanges: true },
      keyCache: { invalidateUser: noop, flush: noop },
      leagueCache: { invalidate: noop },
      leaderboards: { enqueueSettlement: noop, rebuildUser: noop, forgetPages: noop } as never,
      push: {},
      leaderboardWriters: [{ kick: noop }],
      mailVerification: async () => undefined,
    });
    expect(Object.keys(registered.local).sort()).toEqual((Object.keys(WHERE) as LocalEventType[]).sort());
    for (const list of Object.values(registered.local)) expect(list.length).toBeGreaterThan(0);
  });

  it('says what changed explicitly: no regular expression reads SQL text, and src/services.ts only builds', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      const rel = path.relative(SRC, file);
      // database.onQuery is the statement observer of metrics, tracing and the benches; nothing in src reacts through it.
      if (rel !== path.join('db', 'client.ts') && /\.onQuery\(/.test(text)) offenders.push(`${rel}: onQuery`);
      // A regex literal over statement text ("update users", "delete from api_keys", "insert into leagues").
      for (const m of text.matchAll(/\/\^?\\?\(?(?:insert into|update|delete from)[^/\n]*\//gi)) offenders.push(`${rel}: ${m[0]}`);
    }
    const services = readFileSync(path.join(SRC, 'services.ts'), 'utf8');
    for (const wiring of ['.subscribe(', '.onQuery(', 'subscribers.push', 'onKeysRevoked', 'onFollowChanged', 'onSettle']) {
      if (services.includes(wiring)) offenders.push(`services.ts: ${wiring}`);
    }
    expect(offenders).toEqual([]);
  });
});
