/**
 * The marks of the timeline chart, layer by layer: the lane bands and their
 * labels, score changes, events, questions (a bar with its issue and end
 * markers) and the axis; and the marker glyphs the legend shows too. Every
 * mark has a hover title.
 */
import { fmtTime } from '../common.js';
import type { Question, ScoreChange } from './layout.js';
import { LANE_H, ROW_H, posOf, where, type EventTimeline, type Marker, type Point, type Scale } from './scales.js';

const KIND_LABEL: Record<Marker['kind'], string> = { issued: 'Issued', resolved: 'Resolved', voided: 'Voided', revoked: 'Revoked' };

/** A marker's hover title: what happened to which question, the question, where and when. */
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
export const MARKER_KINDS: Marker['kind'][] = ['issued', 'resolved', 'voided', 'revoked'];

/** The legend's color swatches (class, label): score changes and the event colors by team. */
export const legendSwatches = (timeline: EventTimeline): [string, string][] => [
  ['swatch-score', 'score change'],
  ['ev-home', timeline.home_team],
  ['ev-away', timeline.away_team],
  ['ev-none', 'no team'],
];
/** The Score and Questions labels, the questions band, and a band per shown lane with its label. */
export function LaneBands({
  lanes,
  labelW,
  left,
  right,
  yScore,
  yQuestions,
  questionRows,
  yLanes,
}: {
  lanes: { type: string; count: number }[];
  labelW: number;
  left: number;
  right: number;
  yScore: number;
  yQuestions: number;
  questionRows: number;
  yLanes: number;
}) {
  return (
    <>
      <text class="lane-label" x={labelW} y={yScore + 15} text-anchor="end">
        Score
      </text>
      <text class="lane-label" x={labelW} y={yQuestions + 12} text-anchor="end">
        Questions
      </text>
      <rect class="band-questions" x={left} y={yQuestions} width={Math.max(0, right - left)} height={questionRows * ROW_H} />
      {lanes.map((l, i) => (
        <g key={l.type}>
          <rect class={i % 2 ? 'lane lane-odd' : 'lane'} x={left} y={yLanes + i * LANE_H} width={Math.max(0, right - left)} height={LANE_H} />
          <text class="lane-label" x={labelW} y={yLanes + i * LANE_H + 12} text-anchor="end">
            {l.type.length > 16 ? `${l.type.slice(0, 15)}…` : l.type}
            <title>{`${l.type}: ${l.count} events`}</title>
          </text>
        </g>
      ))}
    </>
  );
}

/** A dashed line down the chart at each score change, labelled with the score where there is room. */
export function ScoreChangeMarks({ changes, timeline, yScore, yAxis }: { changes: ScoreChange[]; timeline: EventTimeline; yScore: number; yAxis: number }) {
  return (
    <>
      {changes.map(({ p, x, label }) => {
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
    </>
  );
}

/** Each event in its lane, colored by team (provisional ones marked). */
export function EventMarks({
  lanes,
  points,
  scale,
  timeline,
  yLanes,
}: {
  lanes: { type: string }[];
  points: Point[];
  scale: Scale;
  timeline: EventTimeline;
  yLanes: number;
}) {
  return (
    <>
      {lanes.map((l, i) =>
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
    </>
  );
}

/** Each question: a guide down to the triggering event, its bar, and its issue and end markers. */
export function QuestionMarks({ questions, yQuestions, yAxis }: { questions: Question[]; yQuestions: number; yAxis: number }) {
  return (
    <>
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
    </>
  );
}

/** The axis line and its ticks (with the match clock under them on the feed-sequence axis). */
export function AxisMarks({ scale, left, right, yAxis }: { scale: Scale; left: number; right: number; yAxis: number }) {
  return (
    <>
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
    </>
  );
}
