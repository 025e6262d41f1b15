CREATE TABLE "leaderboard_settlements" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "leaderboard_settlements_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"question_issuance_id" uuid NOT NULL,
	"match_id" uuid NOT NULL,
	"resolved" boolean NOT NULL,
	"scored_at" timestamp with time zone NOT NULL,
	"position" bigint,
	"phase" smallint DEFAULT 1 NOT NULL,
	"cursor" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "question_answers_issuance_idx";--> statement-breakpoint
DROP INDEX "leaderboard_scores_user_idx";--> statement-breakpoint
ALTER TABLE "leaderboard_scores" DROP CONSTRAINT "leaderboard_scores_leaderboard_id_user_id_pk";--> statement-breakpoint
ALTER TABLE "leaderboard_scores" ADD CONSTRAINT "leaderboard_scores_user_id_leaderboard_id_pk" PRIMARY KEY("user_id","leaderboard_id");--> statement-breakpoint
ALTER TABLE "leaderboard_settlements" ADD CONSTRAINT "leaderboard_settlements_question_issuance_id_question_issuances_id_fk" FOREIGN KEY ("question_issuance_id") REFERENCES "public"."question_issuances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leaderboard_settlements_issuance_uq" ON "leaderboard_settlements" USING btree ("question_issuance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "leaderboard_settlements_position_uq" ON "leaderboard_settlements" USING btree ("position");--> statement-breakpoint
CREATE INDEX "leaderboard_settlements_pending_idx" ON "leaderboard_settlements" USING btree ("phase","position") WHERE phase < 4;--> statement-breakpoint
CREATE INDEX "question_answers_issuance_user_idx" ON "question_answers" USING btree ("question_issuance_id","user_id");--> statement-breakpoint
-- The answers that count on leaderboards, as in 0013, less what the applier of
-- leaderboard_settlements has not applied yet: a queued settlement's answers
-- count on the boards of the phases it has finished (1 the match's, 2 the
-- all-time ones, 3 the day, week and month ones), and on those of its current
-- phase for the users up to its cursor. So a rebuild of a user while a
-- settlement is part applied agrees with what the applier adds after it.
-- applied_position: the order the applier took the settlement in (null for
-- answers settled before the queue existed, which come first).
DROP FUNCTION qp_leaderboard_entries(uuid);
--> statement-breakpoint
CREATE FUNCTION qp_leaderboard_entries(p_user uuid)
RETURNS TABLE (scope text, scope_id uuid, period text, period_start date, user_id uuid, outcome text, points integer, scored_at timestamptz, resolved_seq integer, question_issuance_id uuid, applied_position bigint)
LANGUAGE sql STABLE AS $$
  WITH zones AS (
    SELECT d.tz, qp_leaderboard_zone(d.tz) AS zone FROM (SELECT DISTINCT u.match_follow_timezone AS tz FROM users u WHERE p_user IS NULL OR u.id = p_user) d
  ), ans AS (
    SELECT a.user_id, a.match_id, m.league_id, a.outcome, a.points_awarded, a.scored_at, i.resolved_seq, a.question_issuance_id,
           (a.scored_at AT TIME ZONE z.zone) AS local, q.seq AS q_seq, q.phase AS q_phase, q.cursor AS q_cursor, q.position AS q_position
    FROM question_answers a
    JOIN matches m ON m.id = a.match_id AND NOT m.is_test
    JOIN users u ON u.id = a.user_id AND u.is_active AND NOT u.hidden_from_leaderboards
    JOIN zones z ON z.tz IS NOT DISTINCT FROM u.match_follow_timezone
    JOIN question_issuances i ON i.id = a.question_issuance_id
    LEFT JOIN leaderboard_settlements q ON q.question_issuance_id = a.question_issuance_id
    WHERE a.outcome IS NOT NULL AND a.scored_at IS NOT NULL AND (p_user IS NULL OR a.user_id = p_user)
  )
  SELECT k.scope, k.scope_id, k.period, k.period_start, ans.user_id, ans.outcome, ans.points_awarded, ans.scored_at, ans.resolved_seq, ans.question_issuance_id, ans.q_position
  FROM ans CROSS JOIN LATERAL (VALUES
    ('match', ans.match_id, 'all_time', DATE '1970-01-01', 1),
    ('league', ans.league_id, 'all_time', DATE '1970-01-01', 2),
    ('league', ans.league_id, 'day', ans.local::date, 3),
    ('league', ans.league_id, 'week', date_trunc('week', ans.local)::date, 3),
    ('league', ans.league_id, 'month', date_trunc('month', ans.local)::date, 3),
    ('overall', '00000000-0000-0000-0000-000000000000'::uuid, 'all_time', DATE '1970-01-01', 2),
    ('overall', '00000000-0000-0000-0000-000000000000'::uuid, 'day', ans.local::date, 3),
    ('overall', '00000000-0000-0000-0000-000000000000'::uuid, 'week', date_trunc('week', ans.local)::date, 3),
    ('overall', '00000000-0000-0000-0000-000000000000'::uuid, 'month', date_trunc('month', ans.local)::date, 3)
  ) AS k(scope, scope_id, period, period_start, phase)
  WHERE ans.q_seq IS NULL OR ans.q_phase > k.phase OR (ans.q_phase = k.phase AND ans.q_cursor >= ans.user_id)
$$;
--> statement-breakpoint
-- As in 0013, streaks in the order the applier took the settlements in (then, for answers settled before it, by time).
CREATE OR REPLACE FUNCTION qp_leaderboards_rebuild(p_user uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Every writer of the leaderboards takes this lock first (one at a time; no deadlocks between them).
  PERFORM pg_advisory_xact_lock(1717001);
  WITH gone AS (
    DELETE FROM leaderboard_scores s WHERE p_user IS NULL OR s.user_id = p_user RETURNING s.leaderboard_id, s.points
  ), dec AS (
    SELECT g.leaderboard_id, g.points, count(*)::int AS n FROM gone g GROUP BY 1, 2
  )
  UPDATE leaderboard_point_counts c SET players = c.players - dec.n FROM dec WHERE c.leaderboard_id = dec.leaderboard_id AND c.points = dec.points;

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
  ON CONFLICT (leaderboard_id, points) DO UPDATE SET players = c.players + excluded.players;
END;
$$;
