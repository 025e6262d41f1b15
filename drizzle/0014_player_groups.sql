CREATE TABLE "player_group_members" (
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "player_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "player_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"invite_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "player_group_members" ADD CONSTRAINT "player_group_members_group_id_player_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."player_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_group_members" ADD CONSTRAINT "player_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_groups" ADD CONSTRAINT "player_groups_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "player_group_members_user_idx" ON "player_group_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "player_groups_invite_code_uq" ON "player_groups" USING btree ("invite_code");--> statement-breakpoint
CREATE INDEX "player_groups_owner_idx" ON "player_groups" USING btree ("owner_id");