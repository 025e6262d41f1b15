ALTER TABLE "leaderboard_point_counts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leaderboards" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- As in 0016, and every board whose rows change moves its version on, and so
-- does every points total whose players change: what the readers' caches are
-- keyed by (docs/decisions.md#leaderboard-read-caches).
CREATE OR REPLACE FUNCTION qp_leaderboards_rebuild(p_user uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Every writer of the leaderboards takes this lock first (one at a time; no deadlocks between them).
  PERFORM pg_advisory_xact_lock(1717001);
  WITH gone AS (
    DELETE FROM leaderboard_scores s WHERE p_user IS NULL OR s.user_id = p_user RETURNING s.leaderboard_id, s.points
  ), dec AS (
    SELECT g.leaderboard_id, g.points, count(*)::int AS n FROM gone g GROUP BY 1, 2
  ), v AS (
    UPDATE leaderboards b SET version = b.version + 1 WHERE b.id IN (SELECT DISTINCT g.leaderboard_id FROM gone g)
  )
  UPDATE leaderboard_point_counts c SET players = c.players - dec.n, version = c.version + 1 FROM dec WHERE c.leaderboard_id = dec.leaderboard_id AND c.points = dec.points;

  INSERT INTO leaderboards (scope, scope_id, period, period_start)
  SELECT DISTINCT e.scope, e.scope_id, e.period, e.period_start FROM qp_leaderboard_entries(p_user) e
  ORDER BY 1, 2, 3, 4
  ON CONFLICT DO NOTHING;

  WITH e AS (
    SELECT b.id AS leaderboard_id, x.user_id, x.outcome, x.points, x.scored_at, x.resolved_seq, x.question_issuance_id, x.applied_position
    FROM qp_leaderboard_entries(p_user) x
    JOIN leaderboards b ON b.scope = x.scope AND b.scope_id = x.scope_id AND b.period = x.period AND b.period_start = x.period_start
  ), runs AS (
    SELECT e.leaderboard_id, e.user_id, e.outcome,
           count(*) FILTER (WHERE e.outcome = 'incorrect') OVER (PARTITION BY e.leaderboard_id, e.user_id ORDER BY e.applied_position NULLS FIRST, e.scored_at, e.resolved_seq NULLS FIRST, e.question_issuance_id ROWS UNBOUNDED PRECEDING) AS grp
    FROM e
  ), grouped AS (
    SELECT r.leaderboard_id, r.user_id, r.grp, (count(*) FILTER (WHERE r.outcome = 'correct'))::int AS run FROM runs r GROUP BY 1, 2, 3
  ), streaks AS (
    SELECT DISTINCT ON (g.leaderboard_id, g.user_id) g.leaderboard_id, g.user_id, g.run AS current_streak,
           max(g.run) OVER (PARTITION BY g.leaderboard_id, g.user_id) AS best_streak
    FROM grouped g ORDER BY g.leaderboard_id, g.user_id, g.grp DESC
  ), totals AS (
    SELECT e.leaderboard_id, e.user_id, sum(e.points)::int AS points, (count(*) FILTER (WHERE e.outcome = 'correct'))::int AS correct, count(*)::int AS answered,
           coalesce(max(e.scored_at) FILTER (WHERE e.outcome = 'correct'), min(e.scored_at)) AS reached_at
    FROM e GROUP BY 1, 2
  )
  INSERT INTO leaderboard_scores (leaderboard_id, user_id, points, correct, answered, current_streak, best_streak, reached_at)
  SELECT t.leaderboard_id, t.user_id, t.points, t.correct, t.answered, s.current_streak, s.best_streak, t.reached_at
  FROM totals t JOIN streaks s ON s.leaderboard_id = t.leaderboard_id AND s.user_id = t.user_id
  ORDER BY 1, 2;

  INSERT INTO leaderboard_point_counts AS c (leaderboard_id, points, players)
  SELECT s.leaderboard_id, s.points, count(*)::int FROM leaderboard_scores s WHERE p_user IS NULL OR s.user_id = p_user GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (leaderboard_id, points) DO UPDATE SET players = c.players + excluded.players, version = c.version + 1;

  UPDATE leaderboards b SET version = b.version + 1
  WHERE b.id IN (SELECT DISTINCT s.leaderboard_id FROM leaderboard_scores s WHERE p_user IS NULL OR s.user_id = p_user);
END;
$$;
