import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { domainErrors } from '../../src/modules/shared/domain.errors.js';
import { leagueErrors } from '../../src/modules/leagues/leagues.errors.js';
import { leagues } from '../../src/modules/leagues/leagues.table.js';
import { listenerErrors } from '../../src/modules/listeners/listeners.errors.js';
import { matches } from '../../src/modules/matches/matches.table.js';
import { expectError } from '../helpers/errors.js';
import { feedEvent, insertListener, insertListenerEvents, insertLogLines } from '../helpers/engine-rows.js';
import { createMatch, UNKNOWN_ID } from '../helpers/factories.js';
import { useTestApp } from '../helpers/use-test-app.js';

const { app, admin, player } = useTestApp({ player: true });
const day = (d: number, h = 0, m = 0) => new Date(Date.UTC(2026, 10, d, h, m, 0));
const utcToday = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
};

/** The file name of an `attachment` Content-Disposition (quoted or not). */
const attachmentName = (headers: Headers) => /^attachment; filename="?([^";]+)"?$/.exec(headers.get('content-disposition') ?? '')?.[1];

const list = (query: Record<string, string>, token: string | null = admin.token) => app.request('GET', '/api/match-listeners', { token, query });

describe('GET /api/match-listeners', () => {
  it('lists at most 1,000 matches, the earliest kick-offs (as the match list)', async () => {
    const [nba] = await app.services.database.db.select().from(leagues).where(eq(leagues.slug, 'nba'));
    const from = day(3, 0);
    await app.services.database.db.insert(matches).values(
      Array.from({ length: 1001 }, (_, i) => ({
        srId: `bulk-listeners:${i}:${Date.now()}`,
        leagueId: nba!.id,
        homeTeam: 'A',
        awayTeam: 'B',
        scheduled: new Date(from.getTime() + i * 60_000),
      })),
    );
    const res = await list({ league: 'nba', scheduled_from: from.toISOString(), scheduled_to: day(4, 0).toISOString() });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1000);
    expect(res.body[999].match.scheduled).toBe(new Date(from.getTime() + 999 * 60_000).toISOString());
  });

  it('groups the listeners of the league matches in the range by match, newest listener first, matches without listeners included', async () => {
    const atStart = await createMatch(app, { league: 'mls', scheduled: day(20, 0), homeTeam: 'LA Galaxy', awayTeam: 'Seattle' });
    const later = await createMatch(app, { league: 'mls', scheduled: day(20, 19) });
    const earlier = await createMatch(app, { league: 'mls', scheduled: day(20, 16), status: 'closed', isTest: true });
    await createMatch(app, { league: 'mls', scheduled: day(21, 0) }); // `to` is exclusive
    await createMatch(app, { league: 'mls', scheduled: new Date(day(20, 0).getTime() - 1) });
    await createMatch(app, { league: 'wc', scheduled: day(20, 12) });
    const old = await insertListener(app, { matchId: earlier.id, status: 'failed', createdAt: day(20, 15), error: 'feed closed' });
    const current = await insertListener(app, {
      matchId: earlier.id,
      status: 'running',
      source: 'replay',
      speed: 10,
      claimedBy: 'host-1:4242',
      createdAt: day(20, 16),
      startedAt: day(20, 16, 1),
      leaseExpiresAt: day(20, 16, 2),
      heartbeatAt: day(20, 16, 1),
      eventsConsumed: 12,
      eventsTotal: 40,
      issuedCount: 2,
      deniedCount: 3,
      resolvedCount: 1,
      lastEventAt: day(20, 16, 1),
    });
    const res = await list({ league: 'mls', scheduled_from: day(20).toISOString(), scheduled_to: day(21).toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.map((g: { match: { id: string } }) => g.match.id)).toEqual([atStart.id, earlier.id, later.id]);
    expect(res.body[0]).toEqual({
      match: {
        id: atStart.id,
        league: 'mls',
        home_team: 'LA Galaxy',
        away_team: 'Seattle',
        scheduled: day(20).toISOString(),
        status: 'scheduled',
        is_test: false,
      },
      listeners: [],
    });
    expect(res.body[1].match).toMatchObject({ status: 'closed', is_test: true });
    expect(res.body[1].listeners.map((l: { id: string }) => l.id)).toEqual([current.id, old.id]);
    expect(res.body[1].listeners[0]).toEqual({
      id: current.id,
      match_id: earlier.id,
      status: 'running',
      source: 'replay',
      speed: 10,
      claimed_by: 'host-1:4242',
      lease_expires_at: day(20, 16, 2).toISOString(),
      heartbeat_at: day(20, 16, 1).toISOString(),
      events_consumed: 12,
      events_total: 40,
      issued_count: 2,
      denied_count: 3,
      resolved_count: 1,
      last_event_at: day(20, 16, 1).toISOString(),
      error: null,
      created_at: day(20, 16).toISOString(),
      started_at: day(20, 16, 1).toISOString(),
      finished_at: null,
    });
    expect(res.body[1].listeners[1]).toMatchObject({ status: 'failed', source: 'feed', error: 'feed closed', speed: null, started_at: null });
    expect(res.body[2].listeners).toEqual([]);
    expect((await list({ league: 'mls', scheduled_from: day(22).toISOString(), scheduled_to: day(23).toISOString() })).body).toEqual([]);
  });

  it('defaults to the current UTC day', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const today = utcToday();
      const tomorrow = new Date(today.getTime() + 86_400_000);
      const first = await createMatch(app, { league: 'nhl', scheduled: today });
      const last = await createMatch(app, { league: 'nhl', scheduled: new Date(tomorrow.getTime() - 1000) });
      await createMatch(app, { league: 'nhl', scheduled: tomorrow });
      await createMatch(app, { league: 'nhl', scheduled: new Date(today.getTime() - 1000) });
      const res = await list({ league: 'nhl' });
      if (utcToday().getTime() !== today.getTime()) continue; // midnight passed during the test: try again
      expect(res.status).toBe(200);
      expect(res.body.map((g: { match: { id: string } }) => g.match.id)).toEqual([first.id, last.id]);
      return;
    }
  });

  it('answers 400 for an unsupported league or half a range, 404 for a missing league, 422 for bad input, 401 and 403', async () => {
    const unsupported = await list({ league: 'xfl' });
    expectError(unsupported, domainErrors.unsupportedLeague);
    expect(unsupported.body.detail).toContain('xfl');
    const half = await list({ league: 'wc', scheduled_from: day(20).toISOString() });
    expectError(half, listenerErrors.invalidRange);
    // The message names the missing bound.
    expect(half.body.detail).toContain('scheduled_to');
    expectError(await list({ league: 'wc', scheduled_to: day(20).toISOString() }), listenerErrors.invalidRange);
    expect((await list({})).status).toBe(422);
    expect((await list({ league: 'wc', scheduled_from: 'yesterday', scheduled_to: day(20).toISOString() })).status).toBe(422);
    expect((await list({ league: 'wc' }, null)).status).toBe(401);
    expect((await list({ league: 'wc' }, player.token)).status).toBe(403);
    await app.services.database.db.delete(leagues).where(eq(leagues.slug, 'mlb'));
    const missing = await list({ league: 'mlb' });
    expectError(missing, leagueErrors.notFound);
    expect(missing.body.detail).toContain('mlb');
  });
});

describe('GET /api/match-listeners/{listener_id}/log', () => {
  const log = (id: string, query: Record<string, number | string> = {}, token: string | null = admin.token) =>
    app.request('GET', `/api/match-listeners/${id}/log`, { token, query });

  it('pages through the lines oldest first with after and limit', async () => {
    const match = await createMatch(app);
    const listener = await insertListener(app, { matchId: match.id });
    const other = await insertListener(app, { matchId: match.id });
    await insertLogLines(app, other.id, [{ message: 'other listener' }]);
    await insertLogLines(app, listener.id, [
      { message: 'claimed by host-1:4242' },
      { level: 'debug', message: 'event 1' },
      { level: 'warn', message: 'feed slow' },
      { level: 'error', message: 'feed closed' },
      { message: 'stopped' },
    ]);
    const all = await log(listener.id);
    expect(all.status).toBe(200);
    expect(all.body.listener_id).toBe(listener.id);
    expect(all.body.lines.map((l: { line_no: number }) => l.line_no)).toEqual([1, 2, 3, 4, 5]);
    expect(all.body.last_line_no).toBe(5);
    expect(all.body.lines[2]).toEqual({ line_no: 3, at: new Date(Date.UTC(2026, 10, 20, 19, 0, 3)).toISOString(), level: 'warn', message: 'feed slow' });
    const page = await log(listener.id, { after: 2, limit: 2 });
    expect(page.body.lines.map((l: { message: string }) => l.message)).toEqual(['feed slow', 'feed closed']);
    expect(page.body.last_line_no).toBe(4);
    // Nothing new: last_line_no stays where the caller is, so polling with it goes on from there.
    expect((await log(listener.id, { after: 5 })).body).toEqual({ listener_id: listener.id, lines: [], last_line_no: 5 });
    const empty = await insertListener(app, { matchId: match.id });
    expect((await log(empty.id)).body).toEqual({ listener_id: empty.id, lines: [], last_line_no: 0 });
  });

  it('defaults to 1000 lines and accepts up to 5000', async () => {
    const match = await createMatch(app);
    const listener = await insertListener(app, { matchId: match.id });
    await insertLogLines(
      app,
      listener.id,
      Array.from({ length: 1005 }, (_, i) => ({ message: `line ${i + 1}` })),
    );
    const first = await log(listener.id);
    expect(first.body.lines).toHaveLength(1000);
    expect(first.body.last_line_no).toBe(1000);
    expect((await log(listener.id, { after: first.body.last_line_no })).body.lines.map((l: { line_no: number }) => l.line_no)).toEqual([
      1001, 1002, 1003, 1004, 1005,
    ]);
    expect((await log(listener.id, { limit: 5000 })).body.lines).toHaveLength(1005);
  });

  it('answers 404 for an unknown listener, 422 for bad paging, 401 and 403', async () => {
    const match = await createMatch(app);
    const listener = await insertListener(app, { matchId: match.id });
    expectError(await log(UNKNOWN_ID), listenerErrors.notFound);
    for (const query of [{ limit: 0 }, { limit: 5001 }, { after: -1 }, { after: 'x' }, { after: 2 ** 31 }, { after: '99999999999999999999999' }] as Record<
      string,
      number | string
    >[])
      expect((await log(listener.id, query)).status).toBe(422);
    // The largest line number there can be: nothing after it, not an error.
    expect((await log(listener.id, { after: 2 ** 31 - 1 })).body.lines).toEqual([]);
    expect((await log('nope')).status).toBe(422);
    expect((await log(listener.id, {}, null)).status).toBe(401);
    expect((await log(listener.id, {}, player.token)).status).toBe(403);
  });
});

describe('GET /api/match-listeners/{listener_id}/log/download', () => {
  const download = (id: string, token: string | null = admin.token) => app.request('GET', `/api/match-listeners/${id}/log/download`, { token });

  it('sends the whole log as a text attachment, one line per entry', async () => {
    const match = await createMatch(app);
    const listener = await insertListener(app, { matchId: match.id });
    const count = 2345; // more than one page of the stream
    await insertLogLines(
      app,
      listener.id,
      Array.from({ length: count }, (_, i) => ({ level: i === 1 ? 'warn' : 'info', message: i === 2 ? 'two\nlines' : `line ${i + 1}` })),
    );
    const res = await download(listener.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(attachmentName(res.headers)).toBe(`listener-${listener.id.slice(0, 8)}.log`);
    const lines = res.text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(count);
    expect(lines[0]).toBe(`${new Date(Date.UTC(2026, 10, 20, 19, 0, 1)).toISOString()} INFO line 1`);
    expect(lines[1]).toMatch(/ WARN line 2$/);
    expect(lines[2]).toMatch(/ INFO two\\nlines$/);
    expect(lines[count - 1]).toMatch(new RegExp(` INFO line ${count}$`));
  });

  it('sends an empty file for an empty log; 404 for an unknown listener, 401 and 403', async () => {
    const match = await createMatch(app);
    const listener = await insertListener(app, { matchId: match.id });
    const res = await download(listener.id);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expectError(await download(UNKNOWN_ID), listenerErrors.notFound);
    expect((await download(listener.id, null)).status).toBe(401);
    expect((await download(listener.id, player.token)).status).toBe(403);
  });
});

describe('GET /api/match-listeners/{listener_id}/events/download', () => {
  const download = (id: string, token: string | null = admin.token) => app.request('GET', `/api/match-listeners/${id}/events/download`, { token });

  it('sends every consumed message in the order it was consumed, updates and deletes included, as a JSON attachment', async () => {
    const match = await createMatch(app);
    const listener = await insertListener(app, { matchId: match.id });
    const other = await insertListener(app, { matchId: match.id });
    await insertListenerEvents(app, other, [feedEvent({ seq: 1, provider_event_id: 'other' })]);
    // As a misbehaving feed delivered them: two messages share seq 2, an update comes under a lower seq.
    const events = [
      feedEvent({ seq: 1, provider_event_id: 'e1', final: false, data: { outcome: 'saved' } }),
      feedEvent({ seq: 2, provider_event_id: 'e2', type: 'corner' }),
      feedEvent({ seq: 2, provider_event_id: 'e3', type: 'shot' }),
      feedEvent({ seq: 1, provider_event_id: 'e1', operation: 'update', final: true, data: { outcome: 'goal' } }),
      feedEvent({ seq: 4, provider_event_id: 'e2', operation: 'delete', type: 'corner' }),
    ];
    await insertListenerEvents(app, listener, events);
    const res = await download(listener.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(attachmentName(res.headers)).toBe(`listener-${listener.id.slice(0, 8)}-events.json`);
    expect(res.body).toEqual({ listener_id: listener.id, match_id: match.id, event_count: 5, events });
  });

  it('sends an empty recording for a listener that consumed nothing; 404 for an unknown listener, 401 and 403', async () => {
    const match = await createMatch(app);
    const listener = await insertListener(app, { matchId: match.id });
    expect((await download(listener.id)).body).toEqual({ listener_id: listener.id, match_id: match.id, event_count: 0, events: [] });
    expectError(await download(UNKNOWN_ID), listenerErrors.notFound);
    expect((await download(listener.id, null)).status).toBe(401);
    expect((await download(listener.id, player.token)).status).toBe(403);
  });
});
