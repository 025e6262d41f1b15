/** The chart's questions placed in rows (a bar each, from its issue to its end), and the score changes along the feed. */
import { posOf, type Marker, type Point, type Scale } from './scales.js';

export interface Question {
  id: string;
  issued?: Marker;
  end?: Marker;
  x0: number;
  x1: number;
  open: boolean;
  row: number;
}

const MAX_ROWS = 8;

/**
 * Questions: a bar from the issue marker to the end marker (or on to `right`,
 * the newest event, while open; an end no feed event caused goes to the
 * column at `noEventX`), in rows so bars do not overlap (at most 8 rows);
 * `rows` is how many rows there are (at least one).
 */
export function placeQuestions(markers: Marker[], scale: Scale, right: number, noEventX: number): { questions: Question[]; rows: number } {
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
  for (const q of questions) {
    let row = rowEnds.findIndex((end) => end + 8 < q.x0);
    if (row < 0) row = rowEnds.length < MAX_ROWS ? rowEnds.length : MAX_ROWS - 1;
    rowEnds[row] = Math.max(rowEnds[row] ?? 0, q.x1);
    q.row = row;
  }
  return { questions, rows: Math.max(1, rowEnds.length) };
}

/** A score change: the point where the score moved, where it is drawn, and whether it is labelled (labels keep 30 px apart). */
export interface ScoreChange {
  p: Point;
  x: number;
  label: boolean;
}

/** Score changes along the feed. */
export function scoreChanges(points: Point[], scale: Scale): ScoreChange[] {
  const changes: ScoreChange[] = [];
  let prev: Point['score'] | null = null;
  let lastLabelX = -Infinity;
  for (const p of points) {
    if (prev && (p.score.home !== prev.home || p.score.away !== prev.away)) {
      const x = scale.x({ seq: p.seq, period: p.period, clock: p.clock_seconds });
      if (x !== null) {
        const label = x - lastLabelX > 30;
        if (label) lastLabelX = x;
        changes.push({ p, x, label });
      }
    }
    prev = p.score;
  }
  return changes;
}
