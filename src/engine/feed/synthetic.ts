/**
 * A seeded generator of realistic football feeds. The demo and tests need
 * matches of any length, with any teams, that are the same on every run (one
 * seed, one match) and look like real ones to the engine: the same canonical
 * event types as the importers, at real-world rates (about 900 passes, 25
 * shots, 10 corners, 22 fouls, 3 cards and 2-3 goals per match), two halves
 * with stoppage time, a break, end and close.
 *
 * It is a small possession model: a team keeps the ball for a few passes,
 * then shoots, is fouled, wins a corner or loses the ball. Coordinates are
 * normalized (0..1) towards the goal being attacked. clock_seconds is the
 * match clock (second half from 2700); occurred_at adds a 15 minute half time,
 * and `durationScale` shrinks wall time (not the clock) for short demos.
 */
import type { FeedEvent, TeamSide } from '../../domain/sports/events.js';
import { FootballFeedBuilder, otherSide, periodBaseClockSeconds, scoreboardMinute, type FeedDraft } from './football-feed.js';

export interface SyntheticMatchOptions {
  seed: number;
  homeTeam: string;
  awayTeam: string;
  kickoff: Date;
  /** Multiplies wall-clock gaps (0.1 -> a match of about 11 minutes); the match clock is unchanged. Default 1. */
  durationScale?: number;
  /** Part of provider_event_id; defaults to `seed-<seed>`. */
  matchKey?: string;
}

export interface SyntheticMatch {
  homeTeam: string;
  awayTeam: string;
  events: FeedEvent[];
}

/** mulberry32: tiny, fast, and good enough for simulation; same seed, same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Per-possession probabilities of how it ends (the rest: the ball is lost). */
const P = {
  shot: 0.115,
  foul: 0.105,
  corner: 0.03,
  /** Extra attacking weight of the home side. */
  homeEdge: 1.1,
  cardPerFoul: 0.14,
  redPerCard: 0.05,
  shotFromCorner: 0.25,
  headerFromCorner: 0.6,
  cornerAfterSave: 0.3,
  cornerAfterBlock: 0.4,
  lossOutOfPlay: 0.3,
};

/** Shot outcomes: goal, on target (saved), off target, blocked, woodwork. */
const SHOT_OUTCOMES: Array<[string, number]> = [
  ['goal', 0.11],
  ['on_target', 0.24],
  ['off_target', 0.38],
  ['blocked', 0.24],
  ['woodwork', 0.03],
];

const round2 = (n: number) => Math.round(n * 100) / 100;

export function syntheticFootballMatch(opts: SyntheticMatchOptions): SyntheticMatch {
  const scale = opts.durationScale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error('durationScale must be a positive number');
  if (!Number.isInteger(opts.seed)) throw new Error('seed must be an integer');
  const rng = mulberry32(opts.seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * rng();
  const chance = (p: number) => rng() < p;
  const weighted = <T>(items: Array<[T, number]>): T => {
    let r = rng() * items.reduce((s, [, w]) => s + w, 0);
    for (const [item, w] of items) if ((r -= w) < 0) return item;
    return items.at(-1)![0];
  };
  const teamName = (side: TeamSide) => (side === 'home' ? opts.homeTeam : opts.awayTeam);
  const onPitch: Record<TeamSide, number[]> = { home: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], away: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
  const bench: Record<TeamSide, number[]> = { home: [12, 13, 14, 15, 16, 17, 18], away: [12, 13, 14, 15, 16, 17, 18] };
  const player = (side: TeamSide, outfield = true) => {
    const pool = onPitch[side].filter((n) => !outfield || n !== 1);
    return `${teamName(side)} #${pool[Math.floor(rng() * pool.length)]!}`;
  };

  const feed = new FootballFeedBuilder(`synthetic:${opts.matchKey ?? `seed-${opts.seed}`}`, opts.kickoff);
  let n = 0;
  const nextId = () => String(++n);
  let periodWall = 0;
  let base = 0;
  let period = '1';
  let clock = 0;
  const at = () => ({ period, clockSeconds: clock, atSeconds: (periodWall + clock - base) * scale });
  const emit = (type: string, team: TeamSide | null, data: Record<string, unknown> = {}): FeedEvent => feed.add({ ...at(), id: nextId(), type, team, data });
  const goal = (team: TeamSide, draft: Pick<FeedDraft, 'data'>): FeedEvent => {
    const { minute, offset } = scoreboardMinute(period === '1' ? '1' : '2', clock - base);
    return feed.addGoal({ ...at(), id: `${n}:goal`, team, data: { minute, offset, penalty: false, own_goal: false, set_piece: null, ...draft.data } });
  };

  // Substitutions: 3-5 per team in the second half, between 55' and 88'.
  const subs: Array<{ clock: number; team: TeamSide }> = [];
  for (const team of ['home', 'away'] as const) {
    const count = 3 + Math.floor(rng() * 3);
    for (let i = 0; i < count; i++) subs.push({ clock: Math.round(between(55, 88) * 60), team });
  }
  subs.sort((a, b) => a.clock - b.clock);

  feed.status('status:live', 'live', { ...at() });
  const kickOff: TeamSide = chance(0.5) ? 'home' : 'away';
  for (const p of ['1', '2'] as const) {
    period = p;
    base = periodBaseClockSeconds(p);
    clock = base;
    const end = base + 45 * 60 + Math.round(p === '1' ? between(60, 180) : between(180, 360));
    feed.add({ ...at(), id: `period:${p}:start`, type: 'period_start', team: null });
    let side: TeamSide = p === '1' ? kickOff : otherSide(kickOff);
    const shootFromCorner = (team: TeamSide): TeamSide => shot(team, chance(P.headerFromCorner), true);

    /** A shot by `team`; returns who has the ball afterwards. */
    const shot = (team: TeamSide, header: boolean, fromCorner = false): TeamSide => {
      const outcome = weighted(SHOT_OUTCOMES);
      const shooter = player(team);
      const x = round2(fromCorner ? between(0.88, 0.97) : between(0.7, 0.97));
      const y = round2(between(0.25, 0.75));
      const onGoal = outcome === 'goal' || outcome === 'on_target' || outcome === 'woodwork';
      const end =
        outcome === 'blocked'
          ? { end_x: round2(x + 0.02), end_y: y }
          : { end_x: onGoal ? 1 : 1.02, end_y: round2(onGoal ? between(0.45, 0.55) : between(0.3, 0.7)) };
      emit('shot', team, { outcome, player: shooter, x, y, ...end, header, penalty: false, set_piece: null, shootout: false });
      const defender = otherSide(team);
      switch (outcome) {
        case 'goal':
          goal(team, { data: { scorer: shooter, header } });
          clock += Math.round(between(45, 80));
          return defender;
        case 'on_target':
          if (chance(P.cornerAfterSave)) return corner(team);
          clock += Math.round(between(3, 8));
          emit('possession_change', defender, { player: `${teamName(defender)} #1`, via: 'saved', x: 0.03, y: 0.5 });
          return defender;
        case 'blocked':
          if (chance(P.cornerAfterBlock)) return corner(team);
          clock += Math.round(between(1, 3));
          if (chance(0.5)) {
            emit('possession_change', defender, { player: player(defender), via: 'blocked', x: round2(1 - x), y: round2(rng()) });
            return defender;
          }
          return team;
        default:
          // Off target or off the woodwork and out: a goal kick.
          clock += Math.round(between(15, 30));
          return defender;
      }
    };
    const corner = (team: TeamSide): TeamSide => {
      clock += Math.round(between(15, 35));
      emit('corner', team, { player: player(team), retaken: false });
      clock += Math.round(between(2, 5));
      if (chance(P.shotFromCorner)) return shootFromCorner(team);
      const defender = otherSide(team);
      emit('possession_change', defender, { player: player(defender), via: 'clearance', x: round2(between(0.03, 0.15)), y: round2(rng()) });
      return defender;
    };

    while (clock < end) {
      while (subs[0] && subs[0].clock <= clock && period === '2') {
        const sub = subs.shift()!;
        const outIdx = 1 + Math.floor(rng() * (onPitch[sub.team].length - 1));
        const off = onPitch[sub.team][outIdx]!;
        const on = bench[sub.team].shift();
        if (on === undefined) continue;
        onPitch[sub.team][outIdx] = on;
        clock += Math.round(between(20, 40));
        emit('substitution', sub.team, { player_in: `${teamName(sub.team)} #${on}`, player_out: `${teamName(sub.team)} #${off}` });
      }
      // A spell of possession: a few passes.
      const passes = Math.floor(-Math.log(1 - rng()) * 4.5);
      for (let i = 0; i < passes && clock < end; i++) {
        clock += Math.round(between(2, 6));
        emit('pass', side, {
          player: player(side, i > 0),
          to: player(side),
          x: round2(rng()),
          y: round2(rng()),
          end_x: round2(rng()),
          end_y: round2(rng()),
          kind: chance(0.08) ? 'head' : null,
        });
      }
      if (clock >= end) break;
      const edge = side === 'home' ? P.homeEdge : 1 / P.homeEdge;
      const r = rng();
      const defender = otherSide(side);
      clock += Math.round(between(1, 4));
      if (r < P.shot * edge) {
        side = shot(side, chance(0.15));
      } else if (r < P.shot * edge + P.foul) {
        emit('foul', defender, { fouled_team: side, fouled_player: player(side), x: round2(rng()), y: round2(rng()) });
        if (chance(P.cardPerFoul)) {
          clock += Math.round(between(20, 50));
          emit('card', defender, { color: chance(P.redPerCard) ? 'red' : 'yellow', player: player(defender) });
        }
        clock += Math.round(between(10, 30));
        emit('free_kick', side, { player: player(side), kind: chance(0.2) ? 'direct' : 'indirect', retaken: false });
      } else if (r < P.shot * edge + P.foul + P.corner * edge) {
        side = corner(side);
      } else {
        if (chance(P.lossOutOfPlay)) clock += Math.round(between(8, 25));
        emit('possession_change', defender, { player: player(defender), via: chance(0.7) ? 'interception' : 'theft', x: round2(rng()), y: round2(rng()) });
        side = defender;
      }
    }
    clock = Math.max(clock, end);
    feed.add({ ...at(), id: `period:${p}:end`, type: 'period_end', team: null });
    if (p === '1') {
      feed.status('status:break:1', 'break', { ...at(), data: { after_period: '1' } });
      periodWall += clock - base + 15 * 60;
    }
  }
  feed.status('status:ended', 'ended', at());
  feed.close(at());
  return { homeTeam: opts.homeTeam, awayTeam: opts.awayTeam, events: feed.events };
}
