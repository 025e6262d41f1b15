import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPORT_PERIODS, SUPPORTED_LEAGUES, type Sport } from '../../src/domain/sports/league-registry.js';
import { COMMON_EVENT_TYPES } from '../../src/domain/sports/events.js';
import { isKnownEventType, sampleEvent, sportCatalog } from '../../src/domain/sports/sports.js';
import { renderQuestion } from '../../src/domain/question-render.js';
import { domainErrors } from '../../src/modules/shared/domain.errors.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const catalog = (query: Record<string, string | boolean>) => app.request('GET', '/api/question-definitions/sample-catalog', { query });

/** Types each sport must offer beyond the common ones (the brief of the catalog). */
const REQUIRED: Record<Sport, string[]> = {
  football: ['shot', 'corner', 'free_kick', 'foul', 'card', 'substitution', 'possession_change', 'pass'],
  american_football: ['play', 'drive_end', 'possession_change', 'penalty'],
  basketball: ['shot', 'foul', 'timeout'],
  baseball: ['plate_appearance', 'pitching_change'],
  ice_hockey: ['shot', 'penalty'],
};

describe('GET /api/question-definitions/sample-catalog', () => {
  it.each(SUPPORTED_LEAGUES.map((l) => [l.slug, l.sport] as const))(
    'describes every event type of %s (%s) with a sample, without credentials',
    async (slug, sport) => {
      const res = await catalog({ league: slug });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ league: slug, sport, periods: [...SPORT_PERIODS[sport]] });
      expect(res.body.match).toMatchObject({ league: slug, status: 'live', home_team: expect.any(String), away_team: expect.any(String) });
      expect(res.body.match.home_team).not.toBe(res.body.match.away_team);
      const types = res.body.event_types.map((t: { type: string }) => t.type);
      expect(types).toEqual(expect.arrayContaining([...COMMON_EVENT_TYPES, ...REQUIRED[sport]]));
      expect(new Set(types).size).toBe(types.length);
      for (const t of res.body.event_types) {
        expect(t.description.length, t.type).toBeGreaterThan(10);
        expect(t.sample.type).toBe(t.type);
        expect(t.sample.final).toBe(true);
        // Every field of a sample's data is documented.
        const names = t.data_fields.map((f: { name: string }) => f.name);
        for (const key of Object.keys(t.sample.data)) expect(names, `${slug} ${t.type}.data.${key}`).toContain(key);
        if (t.sample.period !== null) expect(SPORT_PERIODS[sport]).toContain(t.sample.period);
        expect(t.sample.score.home).toBeGreaterThanOrEqual(0);
      }
    },
  );

  it('gives football the shapes the importers produce', async () => {
    const res = await catalog({ league: 'wc' });
    const byType = Object.fromEntries(res.body.event_types.map((t: { type: string }) => [t.type, t]));
    expect(byType.match_status.sample.data.status).toMatch(/^(live|break|ended|closed)$/);
    expect(byType.score_change.sample.data).toMatchObject({ scorer: expect.any(String), minute: expect.any(Number), penalty: false, own_goal: false });
    expect(['goal', 'on_target', 'off_target', 'blocked', 'woodwork']).toContain(byType.shot.sample.data.outcome);
    expect(byType.shot.sample.data).toMatchObject({ player: expect.any(String), x: expect.any(Number), y: expect.any(Number) });
    expect(byType.card.sample.data).toMatchObject({ color: expect.stringMatching(/^(yellow|red)$/), player: expect.any(String) });
    expect(byType.shot.description).toContain('woodwork');
  });

  it('gives American football plays and drive results', async () => {
    const res = await catalog({ league: 'nfl' });
    const byType = Object.fromEntries(res.body.event_types.map((t: { type: string }) => [t.type, t]));
    expect(byType.play.sample.data).toMatchObject({
      play_type: expect.any(String),
      yards: expect.any(Number),
      down: expect.any(Number),
      distance: expect.any(Number),
      yard_line: expect.any(Number),
    });
    expect(byType.drive_end.data_fields.find((f: { name: string }) => f.name === 'result').description).toContain('end_of_half');
    expect(byType.score_change.sample.data).toMatchObject({ points: 6, scoring_type: 'touchdown' });
  });

  it('omits the samples with include_samples=false', async () => {
    const res = await catalog({ league: 'nba', include_samples: false });
    expect(res.status).toBe(200);
    expect(res.body.event_types.length).toBeGreaterThan(4);
    for (const t of res.body.event_types) {
      expect(t).not.toHaveProperty('sample');
      expect(t.data_fields).toBeInstanceOf(Array);
    }
    const withSamples = await catalog({ league: 'nba', include_samples: true });
    expect(withSamples.body.event_types.every((t: object) => 'sample' in t)).toBe(true);
  });

  it('answers 400 naming an unsupported slug', async () => {
    const res = await catalog({ league: 'xfl' });
    expectError(res, domainErrors.unsupportedLeague);
    expect(res.body.detail).toContain("'xfl'");
  });

  it('answers 422 without a league or with a non-boolean include_samples', async () => {
    expect((await app.request('GET', '/api/question-definitions/sample-catalog')).status).toBe(422);
    expect((await catalog({ league: 'wc', include_samples: 'maybe' })).status).toBe(422);
  });
});

describe('the sample events', () => {
  it.each(Object.keys(SPORT_PERIODS) as Sport[])('of %s render through the engine, and the helpers agree with the catalog', async (sport) => {
    for (const info of sportCatalog(sport)) {
      expect(isKnownEventType(sport, info.type)).toBe(true);
      const event = sampleEvent(sport, info.type)!;
      expect(event).toEqual(info.sample);
      event.data.changed = true;
      expect(info.sample.data).not.toHaveProperty('changed');
      const match = {
        id: 'm',
        league: 'x',
        home_team: 'Home',
        away_team: 'Away',
        status: 'live',
        period: event.period,
        clock_seconds: event.clock_seconds,
        score: event.score,
      };
      const out = await renderQuestion(
        {
          question_text_template:
            '{{ event.type }} {{ event.team | default: "none" }} {{ event.score.home }}-{{ event.score.away }} {% for f in event.data %}{{ f[0] }} {% endfor %}',
          choices: [{ identifier: 'a', label_template: '{{ match.home_team }}' }],
        },
        { event, state: {}, match, extract: {} },
      );
      expect(out.question_text.startsWith(info.type)).toBe(true);
      for (const key of Object.keys(event.data)) expect(out.question_text).toContain(key);
    }
    expect(isKnownEventType(sport, 'no_such_type')).toBe(false);
    expect(sampleEvent(sport, 'no_such_type')).toBeUndefined();
    expect(isKnownEventType('curling', 'shot')).toBe(false);
  });
});
