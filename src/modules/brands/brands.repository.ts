import { asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/sql-helpers.js';
import { brands, type BrandRow } from './brands.table.js';

export type NewBrand = typeof brands.$inferInsert;

export async function listBrands({ db, q }: { db: DbOrTx; q?: string | undefined }): Promise<BrandRow[]> {
  const p = q ? containsPattern(q) : undefined;
  return db
    .select()
    .from(brands)
    .where(
      p
        ? or(
            ilike(brands.name, p),
            ilike(brands.primaryColor, p),
            ilike(brands.secondaryColor, p),
            ilike(brands.logoFilename, p),
            ilike(sql`${brands.id}::text`, p),
          )
        : undefined,
    )
    .orderBy(asc(sql`lower(${brands.name})`), asc(brands.id));
}

export async function findBrand({ db, id, forUpdate = false }: { db: DbOrTx; id: string; forUpdate?: boolean }): Promise<BrandRow | undefined> {
  const query = db.select().from(brands).where(eq(brands.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertBrand({ db, values }: { db: DbOrTx; values: NewBrand }): Promise<BrandRow> {
  const [row] = await db.insert(brands).values(values).returning();
  return row!;
}

export async function updateBrand({ db, id, values }: { db: DbOrTx; id: string; values: Partial<NewBrand> }): Promise<BrandRow> {
  const [row] = await db
    .update(brands)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(brands.id, id))
    .returning();
  return row!;
}

export async function deleteBrand({ db, id }: { db: DbOrTx; id: string }): Promise<void> {
  await db.delete(brands).where(eq(brands.id, id));
}

/** Inserts brands; a brand whose name exists already is kept as it is. */
export async function insertBrandsIfAbsent({ db, values }: { db: DbOrTx; values: NewBrand[] }): Promise<void> {
  if (!values.length) return;
  await db.insert(brands).values(values).onConflictDoNothing();
}
