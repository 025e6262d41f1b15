/**
 * The event timeline of a match as a hand-built SVG chart: feed sequence (or
 * match clock, one segment per period) across, event types as lanes, score
 * changes as dashed lines, and each in-game question as a bar from its issue
 * marker to its resolve, void or revoke marker. Every mark has a hover title.
 * The scales are in timeline/scales.ts, the placing of questions and score
 * changes in timeline/layout.ts, the marks in timeline/marks.tsx.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { placeQuestions, scoreChanges } from './timeline/layout.js';
import { AxisMarks, EventMarks, LaneBands, MARKER_KINDS, QuestionMarks, ScoreChangeMarks, TimelineLegendGlyph, legendSwatches } from './timeline/marks.js';
import { AXIS_H, LANE_H, NO_EVENT_W, ROW_H, SCORE_H, clockScale, laneOrder, posOf, seqScale, type Axis, type EventTimeline } from './timeline/scales.js';

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

  const { questions, rows: qRows } = placeQuestions(markers, scale, right, noEventX);

  const yScore = 0;
  const yQuestions = SCORE_H;
  const yLanes = yQuestions + qRows * ROW_H + 6;
  const yAxis = yLanes + shownLanes.length * LANE_H + 4;
  const height = yAxis + AXIS_H;

  const changes = scoreChanges(points, scale);
  const last = points[points.length - 1];
  const counts = { issued: 0, resolved: 0, voided: 0, revoked: 0 };
  for (const m of markers) counts[m.kind] += 1;
  const openCount = questions.filter((q) => q.open).length;
  const unplaced = axis === 'clock' ? points.filter((p) => p.period === null || p.clock_seconds === null).length : 0;

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
          <LaneBands
            lanes={shownLanes}
            labelW={labelW}
            left={left}
            right={right}
            yScore={yScore}
            yQuestions={yQuestions}
            questionRows={qRows}
            yLanes={yLanes}
          />
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
          <ScoreChangeMarks changes={changes} timeline={timeline} yScore={yScore} yAxis={yAxis} />
          <EventMarks lanes={shownLanes} points={points} scale={scale} timeline={timeline} yLanes={yLanes} />
          <QuestionMarks questions={questions} yQuestions={yQuestions} yAxis={yAxis} />
          <AxisMarks scale={scale} left={left} right={right} yAxis={yAxis} />
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
