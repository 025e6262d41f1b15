CREATE TABLE "push_match_notifications" (
	"user_id" uuid NOT NULL,
	"match_id" uuid NOT NULL,
	"notified" integer NOT NULL,
	CONSTRAINT "push_match_notifications_user_id_match_id_pk" PRIMARY KEY("user_id","match_id")
);
--> statement-breakpoint
ALTER TABLE "push_match_notifications" ADD CONSTRAINT "push_match_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_match_notifications" ADD CONSTRAINT "push_match_notifications_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_match_notifications_match_idx" ON "push_match_notifications" USING btree ("match_id");--> statement-breakpoint
CREATE INDEX "push_delivery_attempts_question_idx" ON "push_delivery_attempts" USING btree ("question_issuance_id","event");
--> statement-breakpoint
-- Counts of the notifications already delivered, so the cap holds across the upgrade.
INSERT INTO "push_match_notifications" ("user_id", "match_id", "notified")
SELECT a."user_id", qi."match_id", count(DISTINCT a."event" || ':' || a."question_issuance_id"::text)::integer
FROM "push_delivery_attempts" a
JOIN "question_issuances" qi ON qi."id" = a."question_issuance_id"
WHERE a."status" = 'delivered'
GROUP BY a."user_id", qi."match_id";
