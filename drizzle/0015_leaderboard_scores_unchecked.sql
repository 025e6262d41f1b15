ALTER TABLE "leaderboard_scores" DROP CONSTRAINT "leaderboard_scores_leaderboard_id_leaderboards_id_fk";
--> statement-breakpoint
ALTER TABLE "leaderboard_scores" DROP CONSTRAINT "leaderboard_scores_user_id_users_id_fk";
--> statement-breakpoint
-- Room on each page: an incorrect answer changes no indexed column of its rows, so their update can stay on the page (HOT) and off the indexes.
ALTER TABLE "leaderboard_scores" SET (fillfactor = 80);
