ALTER TABLE "api_keys" ADD COLUMN "admin_session_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "match_listeners" ADD COLUMN "events_total" integer;--> statement-breakpoint
CREATE INDEX "api_keys_admin_session_idx" ON "api_keys" USING btree ("admin_session_id") WHERE "api_keys"."admin_session_id" is not null;