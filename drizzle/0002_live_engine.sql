CREATE TABLE "follow_quota_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "follow_quota_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "listener_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"listener_id" uuid NOT NULL,
	"match_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"provider_event_id" text NOT NULL,
	"operation" text NOT NULL,
	"event" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listener_log_lines" (
	"listener_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "listener_log_lines_listener_id_line_no_pk" PRIMARY KEY("listener_id","line_no")
);
--> statement-breakpoint
CREATE TABLE "match_listeners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"source" text NOT NULL,
	"feed_url" text,
	"replay_match_id" uuid,
	"speed" double precision,
	"claimed_by" text,
	"lease_expires_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"stop_requested" boolean DEFAULT false NOT NULL,
	"events_consumed" integer DEFAULT 0 NOT NULL,
	"issued_count" integer DEFAULT 0 NOT NULL,
	"denied_count" integer DEFAULT 0 NOT NULL,
	"resolved_count" integer DEFAULT 0 NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"last_event_at" timestamp with time zone,
	"state_store" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "question_issuance_denials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_id" uuid NOT NULL,
	"listener_id" uuid,
	"definition_id" uuid,
	"definition_name" text NOT NULL,
	"failed_step" text NOT NULL,
	"detail" text NOT NULL,
	"trigger_event_id" text NOT NULL,
	"trigger_event_type" text NOT NULL,
	"period" text,
	"clock_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "feed_url" text;--> statement-breakpoint
ALTER TABLE "follow_quota_days" ADD CONSTRAINT "follow_quota_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listener_events" ADD CONSTRAINT "listener_events_listener_id_match_listeners_id_fk" FOREIGN KEY ("listener_id") REFERENCES "public"."match_listeners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listener_events" ADD CONSTRAINT "listener_events_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listener_log_lines" ADD CONSTRAINT "listener_log_lines_listener_id_match_listeners_id_fk" FOREIGN KEY ("listener_id") REFERENCES "public"."match_listeners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_listeners" ADD CONSTRAINT "match_listeners_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_issuance_denials" ADD CONSTRAINT "question_issuance_denials_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_issuance_denials" ADD CONSTRAINT "question_issuance_denials_definition_id_question_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."question_definitions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "listener_events_listener_seq_uq" ON "listener_events" USING btree ("listener_id","seq");--> statement-breakpoint
CREATE INDEX "listener_events_match_idx" ON "listener_events" USING btree ("match_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "match_listeners_active_uq" ON "match_listeners" USING btree ("match_id") WHERE "match_listeners"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "match_listeners_claim_idx" ON "match_listeners" USING btree ("status","lease_expires_at");--> statement-breakpoint
CREATE INDEX "match_listeners_match_idx" ON "match_listeners" USING btree ("match_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "question_issuance_denials_attempt_uq" ON "question_issuance_denials" USING btree ("match_id","definition_id","trigger_event_id");--> statement-breakpoint
CREATE INDEX "question_issuance_denials_match_idx" ON "question_issuance_denials" USING btree ("match_id","created_at");