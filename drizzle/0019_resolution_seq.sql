ALTER TABLE "question_issuances" ADD COLUMN "resolution_seq" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "question_issuances_resolution_seq_uq" ON "question_issuances" USING btree ("match_id","resolution_seq");--> statement-breakpoint
-- Settlements already made, numbered per match in the order they were settled.
UPDATE "question_issuances" qi SET "resolution_seq" = n.seq
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "match_id" ORDER BY "resolved_at", "updated_at", "id") AS seq
  FROM "question_issuances"
  WHERE "status" IN ('resolved', 'voided', 'revoked')
) n
WHERE qi."id" = n."id";
--> statement-breakpoint
-- Numbers every settlement of a match (an issuance becoming resolved, voided
-- or revoked, by whatever path) at COMMIT: a deferred trigger, so the
-- match's lock is taken at the end of the transaction and held only until
-- its commit. The next settlement of the match waits for that commit, then
-- reads the highest number: numbers follow commit order, without gaps (a
-- rollback takes its number back). A client that holds number n of a match
-- is missing nothing before it once it holds 1..n.
CREATE FUNCTION qp_number_settlement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_seq integer;
BEGIN
  PERFORM pg_advisory_xact_lock(4242019, hashtext(NEW.match_id::text));
  SELECT coalesce(max(resolution_seq), 0) + 1 INTO next_seq FROM question_issuances WHERE match_id = NEW.match_id;
  UPDATE question_issuances SET resolution_seq = next_seq WHERE id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER question_issuances_number_settlement
  AFTER UPDATE OF status ON question_issuances
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN (NEW.status IN ('resolved', 'voided', 'revoked') AND OLD.status NOT IN ('resolved', 'voided', 'revoked'))
  EXECUTE FUNCTION qp_number_settlement();
