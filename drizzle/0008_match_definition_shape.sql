ALTER TABLE "matches" ADD COLUMN "state_store" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "match_question_definitions" ADD COLUMN "is_pivotal_moment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "match_question_definitions" ADD COLUMN "group_id" uuid;--> statement-breakpoint
ALTER TABLE "match_question_definitions" ADD COLUMN "issuance_state_extract" jsonb;--> statement-breakpoint
ALTER TABLE "match_question_definitions" ADD COLUMN "store_state" jsonb;--> statement-breakpoint
ALTER TABLE "match_question_definitions" ADD CONSTRAINT "match_question_definitions_group_id_question_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."question_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "match_question_definitions_group_idx" ON "match_question_definitions" USING btree ("group_id");