/**
 * Where things go on the timeline chart: the horizontal scales (feed
 * sequence, or the match clock with one segment per period), the order of
 * the event lanes, and the sizes of the chart's bands.
 */
import type { components } from '../../../../../generated/api-types.js';
import { fmtClock } from '../controls.js';

export type EventTimeline = components['schemas']['EventTimeline'];
export type Point = components['schemas']['TimelinePoint'];
export type Marker = components['schemas']['TimelineMarker'];
export type Axis = 'seq' | 'clock';

/** Lanes of these types come first, in this order; other types follow, rarest first. */
const LANE_ORDER = [
  'score_change',
  'goal',
  'touchdown',
  'field_goal',
  'home_run',
  'penalty',
  'shot',
  'corner',
  'card',
  'foul',
  'free_kick',
  'substitution',
  'match_status',
  'period_start',
  'period_end',
  'possession_change',
  'pass',
];

export const LANE_H = 16;
export const ROW_H = 16;
export const SCORE_H = 22;
export const AXIS_H = 36;
export const GAP = 10;
export const NO_EVENT_W = 34;

export interface Pos {
  seq: number | null;
  period: string | null;
  clock: number | null;
}

export interface Scale {
  x: (p: Pos) => number | null;
  ticks: { x: number; label: string; sub?: string }[];
  segments: { x0: number; x1: number; label: string }[];
  right: number;
}

/** A position in words: its feed sequence, period and clock. */
export const where = (p: Pos) =>
  [p.seq !== null ? `seq ${p.seq}` : 'no feed event', p.period !== null ? `period ${p.period}` : null, p.clock !== null ? fmtClock(p.clock) : null]
    .filter(Boolean)
    .join(', ');

const niceStep = (span: number, maxTicks: number, steps: number[]) => steps.find((s) => span / s <= maxTicks) ?? steps[steps.length - 1]!;

/** Across: the feed sequence, ticks labelled with the match clock at that point. */
export function seqScale(points: Point[], markers: Marker[], left: number, right: number): Scale {
  const seqs = [...points.map((p) => p.seq), ...markers.map((m) => m.seq).filter((s): s is number => s !== null)];
  const min = seqs.length ? Math.min(...seqs) : 0;
  const max = seqs.length ? Math.max(...seqs) : 1;
  const span = Math.max(1, max - min);
  const w = right - left;
  const x = (s: number) => left + ((s - min) / span) * w;
  const step = niceStep(span, Math.max(2, Math.floor(w / 90)), [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000]);
  const ticks: Scale['ticks'] = [];
  for (let s = Math.ceil(min / step) * step; s <= max; s += step) {
    // The match clock at that feed position (the last point at or before it).
    let at: Point | undefined;
    for (const p of points) {
      if (p.seq > s) break;
      at = p;
    }
    ticks.push({
      x: x(s),
      label: `#${s}`,
      ...(at && at.clock_seconds !== null ? { sub: `${at.period !== null ? `P${at.period} ` : ''}${Math.floor(at.clock_seconds / 60)}'` } : {}),
    });
  }
  return { x: (p) => (p.seq === null ? null : x(p.seq)), ticks, segments: [], right };
}

/** Across: the match clock, one segment per period (as long as its clock span, at least a minute). */
export function clockScale(points: Point[], left: number, right: number): Scale {
  const periods: { key: string; min: number; max: number }[] = [];
  for (const p of points) {
    if (p.period === null || p.clock_seconds === null) continue;
    const seg = periods.find((s) => s.key === p.period);
    if (seg) {
      seg.min = Math.min(seg.min, p.clock_seconds);
      seg.max = Math.max(seg.max, p.clock_seconds);
    } else periods.push({ key: p.period, min: p.clock_seconds, max: p.clock_seconds });
  }
  const spans = periods.map((s) => Math.max(60, s.max - s.min));
  const total = spans.reduce((a, b) => a + b, 0) || 1;
  const usable = right - left - GAP * Math.max(0, periods.length - 1);
  const segments: Scale['segments'] = [];
  const ticks: Scale['ticks'] = [];
  const placed = new Map<string, { x0: number; w: number; min: number; span: number }>();
  let x0 = left;
  periods.forEach((s, i) => {
    const w = (spans[i]! / total) * usable;
    placed.set(s.key, { x0, w, min: s.min, span: spans[i]! });
    segments.push({ x0, x1: x0 + w, label: `period ${s.key}` });
    const stepMin = niceStep(spans[i]! / 60, Math.max(1, Math.floor(w / 56)), [1, 2, 5, 10, 15, 30, 45, 60, 90, 120]);
    for (let m = Math.ceil(s.min / 60 / stepMin) * stepMin; m * 60 <= s.min + spans[i]!; m += stepMin) {
      ticks.push({ x: x0 + ((m * 60 - s.min) / spans[i]!) * w, label: `${m}'` });
    }
    x0 += w + GAP;
  });
  const bySeq = new Map(points.map((p) => [p.seq, p]));
  const x = (p: Pos) => {
    let { period, clock } = p;
    if ((period === null || clock === null) && p.seq !== null) {
      const at = bySeq.get(p.seq);
      if (at) ({ period, clock_seconds: clock } = at);
    }
    if (period === null || clock === null) return null;
    const seg = placed.get(period);
    if (!seg) return null;
    return seg.x0 + ((clock - seg.min) / seg.span) * seg.w;
  };
  return { x, ticks, segments, right };
}

/** The event types as lanes, with their counts: the known ones first (LANE_ORDER), then the rarest first. */
export function laneOrder(points: Point[]): { type: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const p of points) counts.set(p.type, (counts.get(p.type) ?? 0) + 1);
  return [...counts.entries()]
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => {
      const ia = LANE_ORDER.indexOf(a.type);
      const ib = LANE_ORDER.indexOf(b.type);
      if (ia >= 0 || ib >= 0) return (ia < 0 ? 999 : ia) - (ib < 0 ? 999 : ib);
      return a.count - b.count || a.type.localeCompare(b.type);
    });
}

/** Where a marker happened. */
export const posOf = (m: Marker): Pos => ({ seq: m.seq, period: m.period, clock: m.clock_seconds });
