import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, tstz } from '../../db/columns.js';
import { brands, type BrandRow } from '../brands/brands.table.js';
import { questionDefinitions } from '../definitions/definitions.table.js';
import { questionIssuances } from '../issuances/issuances.table.js';
import { matches } from '../matches/matches.table.js';

/** A brand's sponsorship slot on one question of a match. */
export const questionSponsorships = pgTable(
  'question_sponsorships',
  {
    id: idColumn(),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => brands.id, { onDelete: 'cascade' }),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    strategy: text('strategy').notNull(),
    targetNumber: integer('target_number'),
    targetPeriod: text('target_period'),
    targetDefinitionId: uuid('target_definition_id').references(() => questionDefinitions.id, { onDelete: 'restrict' }),
    bestEffort: boolean('best_effort').notNull().default(true),
    questionIssuanceId: uuid('question_issuance_id').references(() => questionIssuances.id, { onDelete: 'set null' }),
    stampedAt: tstz('stamped_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    // Two slots can never target the same question number of a match.
    uniqueIndex('question_sponsorships_number_uq')
      .on(t.matchId, t.targetNumber)
      .where(sql`${t.targetNumber} is not null`),
    uniqueIndex('question_sponsorships_issuance_uq')
      .on(t.questionIssuanceId)
      .where(sql`${t.questionIssuanceId} is not null`),
    index('question_sponsorships_brand_match_idx').on(t.brandId, t.matchId),
    index('question_sponsorships_match_idx').on(t.matchId),
    index('question_sponsorships_definition_idx').on(t.targetDefinitionId),
  ],
);

export type QuestionSponsorshipRow = typeof questionSponsorships.$inferSelect;

/** What a slot shows of its brand (the BrandSummary plus the logo key its URL is made from). */
export type SponsorBrand = Pick<BrandRow, 'id' | 'name' | 'primaryColor' | 'secondaryColor' | 'logoKey'>;
