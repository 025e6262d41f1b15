-- Rows the service kept unique by locking, deduplicated (the earliest stays) for any written otherwise.
DELETE FROM "user_feedback" a USING "user_feedback" b
WHERE a."subject_id" = b."subject_id" AND a."topic" = b."topic" AND (a."created_at", a."id") > (b."created_at", b."id");
--> statement-breakpoint
CREATE UNIQUE INDEX "user_feedback_subject_topic_uq" ON "user_feedback" USING btree ("subject_id","topic");