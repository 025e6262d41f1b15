-- Every change to a user or to one of their API keys is announced on the live
-- bus's channel (qp_live) as {"k":"user","u":"<user id>"}, delivered at commit:
-- each process drops what it keeps of that user (the key cache of the
-- authentication step), whatever path wrote the row (the API, the operator UI,
-- scripts, an operator's own SQL).
CREATE FUNCTION qp_notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  who uuid;
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    who := COALESCE(NEW.id, OLD.id);
  ELSE
    who := COALESCE(NEW.user_id, OLD.user_id);
  END IF;
  PERFORM pg_notify('qp_live', json_build_object('k', 'user', 'u', who)::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_changed_notify AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION qp_notify_user_changed();
--> statement-breakpoint
CREATE TRIGGER api_keys_changed_notify AFTER UPDATE OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION qp_notify_user_changed();
