-- Every change to the leagues table is announced on the live bus's channel
-- (qp_live) as {"k":"leagues"}, delivered at commit: each process drops its
-- copy of the league list (GET /api/leagues), whatever path wrote the rows (the
-- API, a definition's deletion scrubbing allowlists, the seed, an operator's
-- own SQL). One notification per statement: the whole list is dropped.
CREATE FUNCTION qp_notify_leagues_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('qp_live', '{"k":"leagues"}');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER leagues_changed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON leagues FOR EACH STATEMENT EXECUTE FUNCTION qp_notify_leagues_changed();
