CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"key_digest" text NOT NULL,
	"key_prefix" text NOT NULL,
	"purpose" text DEFAULT 'api' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text,
	"email" text NOT NULL,
	"password_hash" text,
	"first_name" text,
	"last_name" text,
	"postal_address" text,
	"date_of_birth" date,
	"match_follow_timezone" text,
	"match_daily_follow_count" integer DEFAULT 3,
	"notify_on_issuance" boolean DEFAULT true NOT NULL,
	"notify_on_resolve" boolean DEFAULT true NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"auth_provider" text DEFAULT 'local_password' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "leagues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"sport" text NOT NULL,
	"default_question_max_count" integer NOT NULL,
	"default_question_min_interval_seconds" integer NOT NULL,
	"default_question_period_distribution" jsonb NOT NULL,
	"default_question_points" integer NOT NULL,
	"default_answer_window_seconds" integer NOT NULL,
	"default_question_probability" double precision DEFAULT 1 NOT NULL,
	"question_definition_allowlist" uuid[],
	"match_question_definition_allowlist" uuid[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"primary_color" text NOT NULL,
	"secondary_color" text,
	"logo_filename" text,
	"logo_key" text,
	"logo_content_type" text,
	"logo_size_bytes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_follows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"match_id" uuid NOT NULL,
	"following" boolean DEFAULT true NOT NULL,
	"counts_toward_quota" boolean DEFAULT false NOT NULL,
	"quota_day" date,
	"followed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unfollowed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "matches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sr_id" text NOT NULL,
	"league_id" uuid NOT NULL,
	"home_team" text NOT NULL,
	"away_team" text NOT NULL,
	"scheduled" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"period" text,
	"clock_seconds" integer,
	"home_score" integer,
	"away_score" integer,
	"venue" text,
	"is_test" boolean DEFAULT false NOT NULL,
	"cloned_from_match_id" uuid,
	"created_by_user_id" uuid,
	"listener_events_archived" boolean DEFAULT false NOT NULL,
	"auto_dispatch_listener" boolean DEFAULT true NOT NULL,
	"question_max_count" integer,
	"question_min_interval_seconds" integer,
	"question_period_distribution" jsonb,
	"question_points" integer,
	"answer_window_seconds" integer,
	"question_probability" double precision,
	"question_definition_allowlist" uuid[],
	"match_question_definition_allowlist" uuid[],
	"sponsor_brand_id" uuid,
	"result" jsonb,
	"started_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_follows" ADD CONSTRAINT "match_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_follows" ADD CONSTRAINT "match_follows_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_league_id_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."leagues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_sponsor_brand_id_brands_id_fk" FOREIGN KEY ("sponsor_brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_digest_uq" ON "api_keys" USING btree ("key_digest");--> statement-breakpoint
CREATE INDEX "api_keys_user_active_idx" ON "api_keys" USING btree ("user_id") WHERE "api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_uq" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "leagues_slug_uq" ON "leagues" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "brands_name_lower_uq" ON "brands" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "match_follows_user_match_uq" ON "match_follows" USING btree ("user_id","match_id");--> statement-breakpoint
CREATE INDEX "match_follows_match_following_idx" ON "match_follows" USING btree ("match_id") WHERE "match_follows"."following";--> statement-breakpoint
CREATE UNIQUE INDEX "matches_sr_id_uq" ON "matches" USING btree ("sr_id");--> statement-breakpoint
CREATE INDEX "matches_scheduled_idx" ON "matches" USING btree ("scheduled");--> statement-breakpoint
CREATE INDEX "matches_league_scheduled_idx" ON "matches" USING btree ("league_id","scheduled");