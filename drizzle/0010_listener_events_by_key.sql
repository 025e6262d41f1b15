-- A recorded message is identified by its content, not by its seq: two messages sharing a seq are both kept.
-- Rows recorded before get a key computed here (md5 of the stored event without its seq); new rows get the
-- push client's key. The two forms never collide, and only rows of one listener are compared with each other.
DROP INDEX "listener_events_listener_seq_uq";--> statement-breakpoint
ALTER TABLE "listener_events" ADD COLUMN "event_key" text;--> statement-breakpoint
UPDATE "listener_events" SET "event_key" = "provider_event_id" || ':' || "operation" || CASE WHEN "operation" = 'delete' THEN '' ELSE ':' || md5(("event" - 'seq')::text) END;--> statement-breakpoint
-- The same content recorded twice by one listener (a redelivery under a new seq) is one message.
DELETE FROM "listener_events" e USING "listener_events" earlier WHERE earlier."listener_id" = e."listener_id" AND earlier."event_key" = e."event_key" AND earlier."id" < e."id";--> statement-breakpoint
ALTER TABLE "listener_events" ALTER COLUMN "event_key" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "listener_events_listener_key_uq" ON "listener_events" USING btree ("listener_id","event_key");--> statement-breakpoint
CREATE INDEX "listener_events_listener_idx" ON "listener_events" USING btree ("listener_id","id");
