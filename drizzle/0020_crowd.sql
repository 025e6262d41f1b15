ALTER TABLE "question_issuances" ADD COLUMN "crowd" jsonb;--> statement-breakpoint
-- Hand-written: questions settled before this migration get their crowd, as settling now stores it.
UPDATE "question_issuances" qi SET "crowd" = (
  SELECT coalesce(jsonb_object_agg(c.choice, c.n), '{}'::jsonb)
  FROM (SELECT qa.selected_answer_identifier AS choice, count(*)::int AS n FROM "question_answers" qa
        WHERE qa.question_issuance_id = qi.id GROUP BY 1) c
) WHERE qi.status IN ('resolved', 'voided', 'revoked');
