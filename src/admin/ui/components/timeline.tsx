/**
 * The event timeline of a match as a hand-built SVG chart: feed sequence (or
 * match clock, one segment per period) across, event types as lanes, score
 * changes as dashed lines, and each in-game question as a bar from its issue
 * marker to its resolve, void or revoke marker. Every mark has a hover title.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { fmtTime } from './common.js';
import { fmtClock } from './controls.js';

export type EventTimeline = components['schemas']['EventTimeline'];
type Point = components['schemas']['TimelinePoint'];
type Marker = components['schemas']['TimelineMarker'];
type Axis = 'seq' | 'clock';

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

const LANE_H = 16;
const ROW_H = 16;
const SCORE_H = 22;
const AXIS_H = 36;
const GAP = 10;
const NO_EVENT_W = 34;

interface Pos {
  seq: number | null;
  period: string | null;
  clock: number | null;
}

interface Scale {
  x: (p: Pos) => number | null;
  ticks: { x: number; label: string; sub?: string }[];
  segments: { x0: number; x1: number; label: string }[];
  right: number;
}

const where = (p: Pos) =>
  [p.seq !== null ? `seq ${p.seq}` : 'no feed event', p.period !== null ? `period ${p.period}` : null, p.clock !== null ? fmtClock(p.clock) : null]
    .filter(Boolean)
    .join(', ');

const niceStep = (span: number, maxTicks: number, steps: number[]) => steps.find((s) => span / s <= maxTicks) ?? steps[steps.length - 1]!;

function seqScale(points: Point[], markers: Marker[], left: number, right: number): Scale {
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

function clockScale(points: Point[], left: number, right: number): Scale {
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

function laneOrder(points: Point[]): { type: string; count: number }[] {
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

interface Question {
  id: string;
  issued?: Marker;
  end?: Marker;
  x0: number;
  x1: number;
  open: boolean;
  row: number;
}

const posOf = (m: Marker): Pos => ({ seq: m.seq, period: m.period, clock: m.clock_seconds });
const KIND_LABEL: Record<Marker['kind'], string> = { issued: 'Issued', resolved: 'Resolved', voided: 'Voided', revoked: 'Revoked' };

function markerTitle(m: Marker): string {
  const head = `${KIND_LABEL[m.kind]}: ${m.definition_name}`;
  const answer = m.kind === 'resolved' ? `\nCorrect answer: ${m.correct_answer_identifier ?? '-'}` : '';
  return `${head}\n${m.question_text}${answer}\n${where(posOf(m))}; ${fmtTime(m.at)}`;
}

/** The glyph of a marker kind centred on (x, y). */
function Glyph({ kind, x, y, title }: { kind: Marker['kind']; x: number; y: number; title?: string }) {
  const t = title ? <title>{title}</title> : null;
  if (kind === 'issued') {
    return (
      <path class="marker marker-issued" d={`M${x - 5.5},${y - 5} L${x + 5.5},${y - 5} L${x},${y + 5} Z`}>
        {t}
      </path>
    );
  }
  if (kind === 'revoked') {
    return (
      <path class="marker marker-revoked" d={`M${x - 4.5},${y - 4.5} L${x + 4.5},${y + 4.5} M${x + 4.5},${y - 4.5} L${x - 4.5},${y + 4.5}`}>
        {t}
      </path>
    );
  }
  return (
    <circle class={`marker marker-${kind}`} cx={x} cy={y} r={4.5}>
      {t}
    </circle>
  );
}

export function TimelineLegendGlyph({ kind }: { kind: Marker['kind'] }) {
  return (
    <svg class="legend-glyph" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      <Glyph kind={kind} x={7} y={7} />
    </svg>
  );
}

/** The marker kinds, in the legend's order. */
const MARKER_KINDS: Marker['kind'][] = ['issued', 'resolved', 'voided', 'revoked'];

/** The legend's color swatches (class, label): score changes and the event colors by team. */
const legendSwatches = (timeline: EventTimeline): [string, string][] => [
  ['swatch-score', 'score change'],
  ['ev-home', timeline.home_team],
  ['ev-away', timeline.away_team],
  ['ev-none', 'no team'],
];

export function EventTimelineChart({ timeline, live = false }: { timeline: EventTimeline; live?: boolean }) {
  const [axis, setAxis] = useState<Axis>('seq');
  const [hidden, setHidden] = useState<string[]>([]);
  const wrap = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(900);
  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(420, Math.floor(el.clientWidth)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const { points, markers } = timeline;
  const lanes = laneOrder(points);
  const shownLanes = lanes.filter((l) => !hidden.includes(l.type));
  const labelW = width < 640 ? 92 : 118;
  const left = labelW + 6;
  const right = width - NO_EVENT_W - 8;
  const scale = axis === 'seq' ? seqScale(points, markers, left, right) : clockScale(points, left, right);
  const noEventX = width - NO_EVENT_W / 2 - 4;

  // Questions: a bar from the issue marker to the end marker (or on to the newest event while open).
  const byId = new Map<string, Question>();
  for (const m of markers) {
    const q = byId.get(m.question_issuance_id) ?? { id: m.question_issuance_id, x0: 0, x1: 0, open: true, row: 0 };
    if (m.kind === 'issued') q.issued = m;
    else {
      q.end = m;
      q.open = false;
    }
    byId.set(m.question_issuance_id, q);
  }
  const questions = [...byId.values()];
  for (const q of questions) {
    const xi = q.issued ? scale.x(posOf(q.issued)) : null;
    const xe = q.end ? (scale.x(posOf(q.end)) ?? noEventX) : right;
    q.x0 = xi ?? xe;
    q.x1 = Math.max(q.x0, xe);
  }
  questions.sort((a, b) => a.x0 - b.x0);
  const rowEnds: number[] = [];
  const MAX_ROWS = 8;
  for (const q of questions) {
    let row = rowEnds.findIndex((end) => end + 8 < q.x0);
    if (row < 0) row = rowEnds.length < MAX_ROWS ? rowEnds.length : MAX_ROWS - 1;
    rowEnds[row] = Math.max(rowEnds[row] ?? 0, q.x1);
    q.row = row;
  }
  const qRows = Math.max(1, rowEnds.length);

  const yScore = 0;
  const yQuestions = SCORE_H;
  const yLanes = yQuestions + qRows * ROW_H + 6;
  const yAxis = yLanes + shownLanes.length * LANE_H + 4;
  const height = yAxis + AXIS_H;

  // Score changes along the feed.
  const changes: { p: Point; x: number }[] = [];
  let prev: Point['score'] | null = null;
  for (const p of points) {
    if (prev && (p.score.home !== prev.home || p.score.away !== prev.away)) {
      const x = scale.x({ seq: p.seq, period: p.period, clock: p.clock_seconds });
      if (x !== null) changes.push({ p, x });
    }
    prev = p.score;
  }
  const last = points[points.length - 1];
  const counts = { issued: 0, resolved: 0, voided: 0, revoked: 0 };
  for (const m of markers) counts[m.kind] += 1;
  const openCount = questions.filter((q) => q.open).length;
  const unplaced = axis === 'clock' ? points.filter((p) => p.period === null || p.clock_seconds === null).length : 0;

  let lastLabelX = -Infinity;
  return (
    <div class="timeline" ref={wrap}>
      <div class="timeline-tools">
        <span class="timeline-summary" aria-live="polite">
          {points.length} events{last ? `, score ${last.score.home}-${last.score.away}` : ''}; {counts.issued} question{counts.issued === 1 ? '' : 's'} issued,{' '}
          {openCount} open, {counts.resolved} resolved, {counts.voided} voided, {counts.revoked} revoked
          {live ? <span class="live-dot"> live</span> : null}
        </span>
        <label class="check">
          Across
          <select value={axis} aria-label="Timeline axis" onChange={(e) => setAxis((e.target as HTMLSelectElement).value as Axis)}>
            <option value="seq">feed sequence</option>
            <option value="clock">match clock (per period)</option>
          </select>
        </label>
      </div>
      {points.length === 0 && markers.length === 0 ? (
        <p class="empty">No events consumed yet.</p>
      ) : (
        <svg
          class="timeline-chart"
          role="img"
          aria-label={`Event timeline of ${timeline.home_team} - ${timeline.away_team}`}
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
        >
          {/* lane backgrounds and labels */}
          <text class="lane-label" x={labelW} y={yScore + 15} text-anchor="end">
            Score
          </text>
          <text class="lane-label" x={labelW} y={yQuestions + 12} text-anchor="end">
            Questions
          </text>
          <rect class="band-questions" x={left} y={yQuestions} width={Math.max(0, right - left)} height={qRows * ROW_H} />
          {shownLanes.map((l, i) => (
            <g key={l.type}>
              <rect class={i % 2 ? 'lane lane-odd' : 'lane'} x={left} y={yLanes + i * LANE_H} width={Math.max(0, right - left)} height={LANE_H} />
              <text class="lane-label" x={labelW} y={yLanes + i * LANE_H + 12} text-anchor="end">
                {l.type.length > 16 ? `${l.type.slice(0, 15)}…` : l.type}
                <title>{`${l.type}: ${l.count} events`}</title>
              </text>
            </g>
          ))}
          {/* period segments (clock axis) */}
          {scale.segments.map((s) => (
            <g key={s.label}>
              <line class="segment-edge" x1={s.x0} x2={s.x0} y1={yQuestions} y2={yAxis} />
              <text class="segment-label" x={s.x0 + 3} y={yAxis + 30}>
                {s.label}
              </text>
            </g>
          ))}
          {/* the column of markers no feed event caused */}
          {markers.some((m) => m.kind !== 'issued' && scale.x(posOf(m)) === null) ? (
            <g>
              <rect class="no-event" x={width - NO_EVENT_W - 4} y={yQuestions} width={NO_EVENT_W} height={qRows * ROW_H} />
              <text class="segment-label" x={noEventX} y={yScore + 15} text-anchor="middle">
                no event
              </text>
            </g>
          ) : null}
          {/* score changes */}
          {changes.map(({ p, x }) => {
            const label = x - lastLabelX > 30;
            if (label) lastLabelX = x;
            const title = `Score ${p.score.home}-${p.score.away} (${p.type}${p.team ? `, ${p.team === 'home' ? timeline.home_team : timeline.away_team}` : ''}; ${where({ seq: p.seq, period: p.period, clock: p.clock_seconds })})`;
            return (
              <g class="score-change" key={`s${p.seq}`}>
                <line x1={x} x2={x} y1={yScore + 18} y2={yAxis}>
                  <title>{title}</title>
                </line>
                {label ? (
                  <text x={x} y={yScore + 14} text-anchor="middle">
                    {p.score.home}-{p.score.away}
                    <title>{title}</title>
                  </text>
                ) : null}
              </g>
            );
          })}
          {/* events */}
          {shownLanes.map((l, i) =>
            points
              .filter((p) => p.type === l.type)
              .map((p) => {
                const x = scale.x({ seq: p.seq, period: p.period, clock: p.clock_seconds });
                if (x === null) return null;
                const team = p.team === 'home' ? timeline.home_team : p.team === 'away' ? timeline.away_team : null;
                return (
                  <rect
                    key={p.seq}
                    class={`ev ev-${p.team ?? 'none'}${p.final ? '' : ' ev-provisional'}`}
                    x={x - 1.25}
                    y={yLanes + i * LANE_H + 3}
                    width={2.5}
                    height={LANE_H - 6}
                  >
                    <title>{`${p.type}${team ? ` (${team})` : ''}\n${where({ seq: p.seq, period: p.period, clock: p.clock_seconds })}\nscore ${p.score.home}-${p.score.away}${p.final ? '' : ', not final'}\n${p.provider_event_id}`}</title>
                  </rect>
                );
              }),
          )}
          {/* questions: guide to the triggering event, bar, issue and end markers */}
          {questions.map((q) => {
            const y = yQuestions + q.row * ROW_H + ROW_H / 2;
            const status = q.end?.kind ?? 'open';
            const bar = `${q.issued?.definition_name ?? q.end?.definition_name}: ${status}`;
            return (
              <g class={`question question-${status}`} key={q.id} data-issuance={q.id}>
                {q.issued ? <line class="issue-guide" x1={q.x0} x2={q.x0} y1={y + 5} y2={yAxis} /> : null}
                <line class={`q-bar q-bar-${status}`} x1={q.x0} x2={q.x1} y1={y} y2={y}>
                  <title>{bar}</title>
                </line>
                {q.issued ? <Glyph kind="issued" x={q.x0} y={y} title={markerTitle(q.issued)} /> : null}
                {q.end ? <Glyph kind={q.end.kind} x={q.x1} y={y} title={markerTitle(q.end)} /> : null}
              </g>
            );
          })}
          {/* axis */}
          <line class="axis" x1={left} x2={right} y1={yAxis} y2={yAxis} />
          {scale.ticks.map((t) => (
            <g key={`t${t.x}`}>
              <line class="axis" x1={t.x} x2={t.x} y1={yAxis} y2={yAxis + 4} />
              <text class="tick" x={t.x} y={yAxis + 15} text-anchor="middle">
                {t.label}
              </text>
              {t.sub ? (
                <text class="tick tick-sub" x={t.x} y={yAxis + 28} text-anchor="middle">
                  {t.sub}
                </text>
              ) : null}
            </g>
          ))}
        </svg>
      )}
      <div class="timeline-legend">
        {MARKER_KINDS.map((kind) => (
          <span>
            <TimelineLegendGlyph kind={kind} /> {kind}
          </span>
        ))}
        {legendSwatches(timeline).map(([swatch, label]) => (
          <span>
            <i class={`swatch ${swatch}`} /> {label}
          </span>
        ))}
        {unplaced ? <span class="muted">{unplaced} events without a clock not drawn</span> : null}
      </div>
      {lanes.length ? (
        <details class="timeline-lanes">
          <summary>
            Event types shown ({shownLanes.length} of {lanes.length})
          </summary>
          <div class="lane-toggles">
            {lanes.map((l) => (
              <label class="check" key={l.type}>
                <input
                  type="checkbox"
                  checked={!hidden.includes(l.type)}
                  onChange={(e) => setHidden((h) => ((e.target as HTMLInputElement).checked ? h.filter((t) => t !== l.type) : [...h, l.type]))}
                />{' '}
                {l.type} ({l.count})
              </label>
            ))}
          </div>
        </details>
      ) : null}
    </div>
  );
}
