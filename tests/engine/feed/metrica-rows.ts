/**
 * What a Metrica event CSV holds, read from its rows without the importer:
 * how many events of each canonical type the mapping (docs/vocabulary.md)
 * gives. The importer's output and the real-data proof's recording are
 * checked against it, type by type.
 */

interface Row {
  team: string;
  type: string;
  subtypes: string[];
  period: string;
  start: number;
}

function rowsOf(csv: string): Row[] {
  return csv
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => {
      const [team, type, subtype, period, , start] = line.split(',');
      return { team: team!, type: type!, subtypes: subtype ? subtype.split('-') : [], period: period!, start: Number(start) };
    });
}

const has = (r: Row, token: string) => r.subtypes.includes(token);

/**
 * The duels: a CHALLENGE row pairs with one of the other side in the same period at most 2 s away, aerial
 * with aerial (ground, tackle and dribble with each other), not both won nor both lost, closest first; a
 * row left alone is a duel of its own.
 */
function duelCount(rows: Row[]): number {
  const challenges = rows.filter((r) => r.type === 'CHALLENGE');
  const family = (r: Row) => (has(r, 'AERIAL') ? 'air' : ['GROUND', 'TACKLE', 'DRIBBLE'].some((t) => has(r, t)) ? 'ground' : null);
  const outcome = (r: Row) => (has(r, 'WON') ? 'won' : has(r, 'LOST') ? 'lost' : null);
  const pairs: [number, number, number][] = [];
  challenges.forEach((a, i) =>
    challenges.forEach((b, j) => {
      if (j <= i || a.team === b.team || a.period !== b.period || Math.abs(a.start - b.start) > 2) return;
      if (family(a) && family(b) && family(a) !== family(b)) return;
      if (outcome(a) && outcome(a) === outcome(b)) return;
      pairs.push([Math.abs(a.start - b.start), i, j]);
    }),
  );
  pairs.sort((p, q) => p[0] - q[0] || p[2] - p[1] - (q[2] - q[1]) || p[1] - q[1]);
  const paired = new Set<number>();
  let n = 0;
  for (const [, i, j] of pairs) {
    if (paired.has(i) || paired.has(j)) continue;
    paired.add(i).add(j);
    n++;
  }
  return challenges.length - n;
}

/** The rows of Metrica's JSON event format (`data[]`), as the CSV's. */
function rowsOfJson(json: string): Row[] {
  const name = (v: unknown) => (v as { name?: string } | null)?.name ?? '';
  return (JSON.parse(json) as { data: Record<string, any>[] }).data.map((e) => ({
    team: String(e.team?.id ?? e.team?.name ?? ''),
    type: name(e.type).toUpperCase(),
    subtypes: (Array.isArray(e.subtypes) ? e.subtypes : e.subtypes ? [e.subtypes] : []).map((x: unknown) => name(x).toUpperCase()),
    period: String(e.period),
    start: Number(e.start.time),
  }));
}

/** Events per canonical type that the rows of a Metrica CSV (or, `json`, of its JSON format) give. */
export function countsFromRows(text: string, format: 'csv' | 'json' = 'csv'): Record<string, number> {
  const rows = format === 'csv' ? rowsOf(text) : rowsOfJson(text);
  const count = (test: (r: Row) => boolean) => rows.filter(test).length;
  // A ball into the goal by a side that kicks off next (it conceded): an own goal, not a ball out.
  const ownGoals = rows.filter((r, i) => {
    if (r.type !== 'BALL OUT' || !has(r, 'GOAL') || r.period === '5') return false;
    const next = rows.slice(i + 1).find((x) => x.period !== r.period || (x.type === 'SET PIECE' && has(x, 'KICK OFF')));
    return next?.period === r.period && next.team === r.team;
  }).length;
  const periods = new Set(rows.map((r) => r.period)).size;
  const setPiece = (kind: string) => count((r) => r.type === 'SET PIECE' && has(r, kind));
  const counts: Record<string, number> = {
    match_status: 1 + (periods - 1) + 2,
    period_start: periods,
    period_end: periods,
    pass: count((r) => r.type === 'PASS'),
    offside: count((r) => (r.type === 'PASS' || r.type === 'BALL LOST') && has(r, 'OFFSIDE')),
    hand_ball: count((r) => r.type === 'BALL LOST' && has(r, 'HAND BALL')),
    shot: count((r) => r.type === 'SHOT'),
    score_change: count((r) => r.type === 'SHOT' && has(r, 'GOAL') && r.period !== '5') + ownGoals,
    ball_out: count((r) => r.type === 'BALL OUT') - ownGoals,
    corner: setPiece('CORNER KICK'),
    free_kick: setPiece('FREE KICK'),
    throw_in: setPiece('THROW IN'),
    kick_off: setPiece('KICK OFF'),
    penalty_awarded: setPiece('PENALTY'),
    goal_kick: count((r) => ['PASS', 'BALL LOST', 'BALL OUT', 'SET PIECE'].includes(r.type) && has(r, 'GOAL KICK')),
    card: count((r) => r.type === 'CARD' && ['YELLOW', 'RED', 'SECOND YELLOW', 'YELLOW RED'].some((t) => has(r, t))),
    foul: count((r) => r.type === 'FAULT RECEIVED'),
    possession_change: count((r) => r.type === 'RECOVERY'),
    duel: duelCount(rows),
  };
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}
