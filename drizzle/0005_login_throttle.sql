CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "login_throttle_expire_idx" ON "login_throttle" USING btree ("expire");