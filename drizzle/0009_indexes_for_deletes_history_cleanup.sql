CREATE INDEX "api_keys_expires_idx" ON "api_keys" USING btree ("expires_at") WHERE "api_keys"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "question_issuance_denials_definition_idx" ON "question_issuance_denials" USING btree ("definition_id");--> statement-breakpoint
CREATE INDEX "question_answers_user_updated_idx" ON "question_answers" USING btree ("user_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "question_answers_match_idx" ON "question_answers" USING btree ("match_id");--> statement-breakpoint
CREATE INDEX "user_feedback_issuance_idx" ON "user_feedback" USING btree ("question_issuance_id");