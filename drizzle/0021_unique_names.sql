CREATE TABLE "user_names" (
	"name_key" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_names" ADD CONSTRAINT "user_names_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_names_user_idx" ON "user_names" USING btree ("user_id");--> statement-breakpoint
-- Hand-written from here: the names table is filled, and kept, by the database itself.
-- qp_user_names_rebuild() fills it from the users: every username first (they are unique already), then the
-- display names in the order their accounts were made (created_at, then id). A display name that another user's
-- username or an earlier display name already holds (without regard to case) gets the first free " 2", " 3", ...
-- (cut to 32 characters): the earliest account keeps a name, and the outcome is the same on every run.
CREATE FUNCTION qp_user_names_rebuild() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  u record;
  candidate text;
  n integer;
  renamed integer := 0;
BEGIN
  DELETE FROM user_names;
  INSERT INTO user_names (name_key, user_id) SELECT lower(username), id FROM users WHERE username IS NOT NULL;
  FOR u IN SELECT id, username, display_name FROM users WHERE display_name IS NOT NULL ORDER BY created_at, id LOOP
    CONTINUE WHEN lower(u.display_name) = lower(coalesce(u.username, ''));
    candidate := u.display_name;
    n := 1;
    LOOP
      INSERT INTO user_names (name_key, user_id) VALUES (lower(candidate), u.id) ON CONFLICT DO NOTHING;
      EXIT WHEN FOUND;
      n := n + 1;
      candidate := rtrim(left(u.display_name, 32 - length(' ' || n))) || ' ' || n;
    END LOOP;
    IF candidate <> u.display_name THEN
      UPDATE users SET display_name = candidate, updated_at = now() WHERE id = u.id;
      renamed := renamed + 1;
    END IF;
  END LOOP;
  RETURN renamed;
END $$;
--> statement-breakpoint
SELECT qp_user_names_rebuild();
--> statement-breakpoint
-- Every write of a username or display name claims its names: a name another user holds fails the write with a
-- unique violation on user_names_pkey (409 for the API), and parallel claims of one name are settled by that key.
CREATE FUNCTION qp_user_names_claim() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.username IS NOT DISTINCT FROM OLD.username AND NEW.display_name IS NOT DISTINCT FROM OLD.display_name THEN
    RETURN NULL;
  END IF;
  DELETE FROM user_names WHERE user_id = NEW.id;
  INSERT INTO user_names (name_key, user_id)
    SELECT DISTINCT k, NEW.id FROM unnest(ARRAY[lower(NEW.username), lower(NEW.display_name)]) AS k WHERE k IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_claim_names AFTER INSERT OR UPDATE OF username, display_name ON users
  FOR EACH ROW EXECUTE FUNCTION qp_user_names_claim();
