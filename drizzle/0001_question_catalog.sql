CREATE TABLE "question_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"league_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"max_open_questions" integer DEFAULT 1 NOT NULL,
	"question_max_count" integer,
	"min_interval_seconds" integer,
	"period_distribution" jsonb,
	"answer_window_seconds" integer,
	"points" integer,
	"probability" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"league_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_pivotal_moment" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	"group_id" uuid,
	"trigger" jsonb NOT NULL,
	"trigger_event_type" text NOT NULL,
	"question_text_template" text NOT NULL,
	"choices" jsonb NOT NULL,
	"issuance_state_extract" jsonb,
	"store_state" jsonb,
	"resolution" jsonb NOT NULL,
	"answer_window_seconds" integer,
	"points" integer,
	"probability" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_question_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"league_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"question_text_template" text NOT NULL,
	"choices" jsonb NOT NULL,
	"issue_lead_seconds" integer DEFAULT 86400 NOT NULL,
	"resolution" jsonb NOT NULL,
	"points" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_issuances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"definition_id" uuid,
	"match_question_definition_id" uuid,
	"definition_name" text NOT NULL,
	"group_id" uuid,
	"lane" text DEFAULT 'default' NOT NULL,
	"question_number" integer,
	"is_pivotal_moment" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"question_text" text NOT NULL,
	"choices" jsonb NOT NULL,
	"choice_templates" jsonb,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"resolution" jsonb NOT NULL,
	"trigger_event_id" text,
	"trigger_event" jsonb,
	"trigger_seq" integer,
	"period" text,
	"clock_seconds" integer,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_seq" integer,
	"resolution_event_id" text,
	"correct_answer_identifier" text,
	"points" integer NOT NULL,
	"answer_window_seconds" integer,
	"sponsor_brand_id" uuid,
	"sponsor_brand" jsonb,
	"match_sponsor_brand" jsonb,
	"listener_id" uuid,
	"decision_trace" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_issuances_kind_ck" CHECK (("question_issuances"."kind" = 'in_game' and "question_issuances"."match_question_definition_id" is null) or ("question_issuances"."kind" = 'match' and "question_issuances"."definition_id" is null))
);
--> statement-breakpoint
CREATE TABLE "question_sponsorships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_id" uuid NOT NULL,
	"match_id" uuid NOT NULL,
	"strategy" text NOT NULL,
	"target_number" integer,
	"target_period" text,
	"target_definition_id" uuid,
	"best_effort" boolean DEFAULT true NOT NULL,
	"question_issuance_id" uuid,
	"stamped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "question_groups" ADD CONSTRAINT "question_groups_league_id_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."leagues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_definitions" ADD CONSTRAINT "question_definitions_league_id_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."leagues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_definitions" ADD CONSTRAINT "question_definitions_group_id_question_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."question_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_question_definitions" ADD CONSTRAINT "match_question_definitions_league_id_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."leagues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_issuances" ADD CONSTRAINT "question_issuances_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_issuances" ADD CONSTRAINT "question_issuances_definition_id_question_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."question_definitions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_issuances" ADD CONSTRAINT "question_issuances_match_question_definition_id_match_question_definitions_id_fk" FOREIGN KEY ("match_question_definition_id") REFERENCES "public"."match_question_definitions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_issuances" ADD CONSTRAINT "question_issuances_group_id_question_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."question_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_issuances" ADD CONSTRAINT "question_issuances_sponsor_brand_id_brands_id_fk" FOREIGN KEY ("sponsor_brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sponsorships" ADD CONSTRAINT "question_sponsorships_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sponsorships" ADD CONSTRAINT "question_sponsorships_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sponsorships" ADD CONSTRAINT "question_sponsorships_target_definition_id_question_definitions_id_fk" FOREIGN KEY ("target_definition_id") REFERENCES "public"."question_definitions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sponsorships" ADD CONSTRAINT "question_sponsorships_question_issuance_id_question_issuances_id_fk" FOREIGN KEY ("question_issuance_id") REFERENCES "public"."question_issuances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "question_groups_league_slug_uq" ON "question_groups" USING btree ("league_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "question_definitions_league_name_uq" ON "question_definitions" USING btree ("league_id",lower("name"));--> statement-breakpoint
CREATE INDEX "question_definitions_group_idx" ON "question_definitions" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "question_definitions_league_trigger_idx" ON "question_definitions" USING btree ("league_id","trigger_event_type");--> statement-breakpoint
CREATE UNIQUE INDEX "match_question_definitions_league_name_uq" ON "match_question_definitions" USING btree ("league_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "question_issuances_trigger_uq" ON "question_issuances" USING btree ("match_id","definition_id","trigger_event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "question_issuances_match_definition_uq" ON "question_issuances" USING btree ("match_id","match_question_definition_id");--> statement-breakpoint
CREATE UNIQUE INDEX "question_issuances_number_uq" ON "question_issuances" USING btree ("match_id","question_number");--> statement-breakpoint
CREATE INDEX "question_issuances_match_issued_idx" ON "question_issuances" USING btree ("match_id","issued_at");--> statement-breakpoint
CREATE INDEX "question_issuances_definition_idx" ON "question_issuances" USING btree ("definition_id");--> statement-breakpoint
CREATE INDEX "question_issuances_match_definition_idx" ON "question_issuances" USING btree ("match_question_definition_id");--> statement-breakpoint
CREATE INDEX "question_issuances_open_idx" ON "question_issuances" USING btree ("status","closes_at") WHERE "question_issuances"."status" in ('open', 'locked');--> statement-breakpoint
CREATE UNIQUE INDEX "question_sponsorships_number_uq" ON "question_sponsorships" USING btree ("match_id","target_number") WHERE "question_sponsorships"."target_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "question_sponsorships_issuance_uq" ON "question_sponsorships" USING btree ("question_issuance_id") WHERE "question_sponsorships"."question_issuance_id" is not null;--> statement-breakpoint
CREATE INDEX "question_sponsorships_brand_match_idx" ON "question_sponsorships" USING btree ("brand_id","match_id");--> statement-breakpoint
CREATE INDEX "question_sponsorships_match_idx" ON "question_sponsorships" USING btree ("match_id");--> statement-breakpoint
CREATE INDEX "question_sponsorships_definition_idx" ON "question_sponsorships" USING btree ("target_definition_id");