ALTER TABLE "leagues" ADD COLUMN "default_min_answer_seconds" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "min_answer_seconds" integer;--> statement-breakpoint
ALTER TABLE "question_groups" ADD COLUMN "min_answer_seconds" integer;--> statement-breakpoint
ALTER TABLE "question_definitions" ADD COLUMN "min_answer_seconds" integer;--> statement-breakpoint
ALTER TABLE "question_issuances" ADD COLUMN "min_answer_seconds" integer DEFAULT 0 NOT NULL;