CREATE TABLE "leaderboard_point_counts" (
	"leaderboard_id" integer NOT NULL,
	"points" integer NOT NULL,
	"players" integer NOT NULL,
	CONSTRAINT "leaderboard_point_counts_leaderboard_id_points_pk" PRIMARY KEY("leaderboard_id","points")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_scores" (
	"leaderboard_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"points" integer NOT NULL,
	"correct" integer NOT NULL,
	"answered" integer NOT NULL,
	"current_streak" integer NOT NULL,
	"best_streak" integer NOT NULL,
	"reached_at" timestamp with time zone NOT NULL,
	CONSTRAINT "leaderboard_scores_leaderboard_id_user_id_pk" PRIMARY KEY("leaderboard_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "leaderboards" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "leaderboards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"scope" text NOT NULL,
	"scope_id" uuid NOT NULL,
	"period" text NOT NULL,
	"period_start" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leaderboard_point_counts" ADD CONSTRAINT "leaderboard_point_counts_leaderboard_id_leaderboards_id_fk" FOREIGN KEY ("leaderboard_id") REFERENCES "public"."leaderboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaderboard_scores" ADD CONSTRAINT "leaderboard_scores_leaderboard_id_leaderboards_id_fk" FOREIGN KEY ("leaderboard_id") REFERENCES "public"."leaderboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaderboard_scores" ADD CONSTRAINT "leaderboard_scores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leaderboard_scores_rank_idx" ON "leaderboard_scores" USING btree ("leaderboard_id","points" DESC NULLS LAST,"correct" DESC NULLS LAST,"reached_at","user_id");--> statement-breakpoint
CREATE INDEX "leaderboard_scores_user_idx" ON "leaderboard_scores" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "leaderboards_key_uq" ON "leaderboards" USING btree ("scope","scope_id","period","period_start");--> statement-breakpoint
-- The zone a user's periods are counted in: their match_follow_timezone, or
-- UTC when blank or unknown to this server (as the service's own calendar).
CREATE FUNCTION qp_leaderboard_zone(tz text) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF tz IS NULL OR btrim(tz) = '' THEN
    RETURN 'UTC';
  END IF;
  PERFORM now() AT TIME ZONE btrim(tz);
  RETURN btrim(tz);
EXCEPTION WHEN others THEN
  RETURN 'UTC';
END;
$$;
--> statement-breakpoint
-- Every scored answer that counts on leaderboards (of one user, or of all when
-- p_user is null), once per leaderboard it counts in: its match (all time),
-- its league and the whole game (all time, and the day, week and month it was
-- scored in, in the player's zone). Answers on test matches, and answers of
-- deactivated or hidden users, count nowhere.
CREATE FUNCTION qp_leaderboard_entries(p_user uuid)
RETURNS TABLE (scope text, scope_id uuid, period text, period_start date, user_id uuid, outcome text, points integer, scored_at timestamptz, resolved_seq integer, question_issuance_id uuid)
LANGUAGE sql STABLE AS $$
  WITH zones AS (
    SELECT d.tz, qp_leaderboard_zone(d.tz) AS zone FROM (SELECT DISTINCT u.match_follow_timezone AS tz FROM users u WHERE p_user IS NULL OR u.id = p_user) d
  ), ans AS (
    SELECT a.user_id, a.match_id, m.league_id, a.outcome, a.points_awarded, a.scored_at, i.resolved_seq, a.question_issuance_id,
           (a.scored_at AT TIME ZONE z.zone) AS local
    FROM question_answers a
    JOIN matches m ON m.id = a.match_id AND NOT m.is_test
    JOIN users u ON u.id = a.user_id AND u.is_active AND NOT u.hidden_from_leaderboards
    JOIN zones z ON z.tz IS NOT DISTINCT FROM u.match_follow_timezone
    JOIN question_issuances i ON i.id = a.question_issuance_id
    WHERE a.outcome IS NOT NULL AND a.scored_at IS NOT NULL AND (p_user IS NULL OR a.user_id = p_user)
  )
  SELECT k.scope, k.scope_id, k.period, k.period_start, ans.user_id, ans.outcome, ans.points_awarded, ans.scored_at, ans.resolved_seq, ans.question_issuance_id
  FROM ans CROSS JOIN LATERAL (VALUES
    ('match', ans.match_id, 'all_time', DATE '1970-01-01'),
    ('league', ans.league_id, 'all_time', DATE '1970-01-01'),
    ('league', ans.league_id, 'day', ans.local::date),
    ('league', ans.league_id, 'week', date_trunc('week', ans.local)::date),
    ('league', ans.league_id, 'month', date_trunc('month', ans.local)::date),
    ('overall', '00000000-0000-0000-0000-000000000000'::uuid, 'all_time', DATE '1970-01-01'),
    ('overall', '00000000-0000-0000-0000-000000000000'::uuid, 'day', ans.local::date),
    ('overall', '00000000-0000-0000-0000-000000000000'::uuid, 'week', date_trunc('week', ans.local)::date),
    ('overall', '00000000-0000-0000-0000-000000000000'::uuid, 'month', date_trunc('month', ans.local)::date)
  ) AS k(scope, scope_id, period, period_start)
$$;
--> statement-breakpoint
-- Rebuilds the leaderboard rows of one user (all users when p_user is null)
-- from their scored answers, keeping the point counts in step: what hiding,
-- deactivating, reactivating or a new time zone calls, and the backfill
-- below. Streaks follow the order the questions settled in.
CREATE FUNCTION qp_leaderboards_rebuild(p_user uuid) RETURNS void LANGUAGE plpgsql AS $$
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
    SELECT b.id AS leaderboard_id, x.user_id, x.outcome, x.points, x.scored_at, x.resolved_seq, x.question_issuance_id
    FROM qp_leaderboard_entries(p_user) x
    JOIN leaderboards b ON b.scope = x.scope AND b.scope_id = x.scope_id AND b.period = x.period AND b.period_start = x.period_start
  ), runs AS (
    SELECT e.leaderboard_id, e.user_id, e.outcome,
           count(*) FILTER (WHERE e.outcome = 'incorrect') OVER (PARTITION BY e.leaderboard_id, e.user_id ORDER BY e.scored_at, e.resolved_seq NULLS FIRST, e.question_issuance_id ROWS UNBOUNDED PRECEDING) AS grp
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
--> statement-breakpoint
-- The backfill: every answer scored before leaderboards existed.
SELECT qp_leaderboards_rebuild(NULL);
