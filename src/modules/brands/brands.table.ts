import { sql } from 'drizzle-orm';
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from '../../db/columns.js';

export const brands = pgTable(
  'brands',
  {
    id: idColumn(),
    name: text('name').notNull(),
    primaryColor: text('primary_color').notNull(),
    secondaryColor: text('secondary_color'),
    logoFilename: text('logo_filename'),
    /** Object key in the bucket (`brands/{id}/{filename}`). */
    logoKey: text('logo_key'),
    logoContentType: text('logo_content_type'),
    logoSizeBytes: integer('logo_size_bytes'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('brands_name_lower_uq').on(sql`lower(${t.name})`)],
);

export type BrandRow = typeof brands.$inferSelect;
