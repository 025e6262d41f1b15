/**
 * Brands and their logos. Logo objects and rows are kept consistent: a new
 * object is written before the row that points at it is committed (and
 * removed again if the row cannot be written; on update it is written inside
 * the row's transaction once the row update has passed, so a failed update
 * never overwrites the current logo); an old object is removed only after the
 * row no longer points at it.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import type { Db } from '../../db/client.js';
import { isAppError, isUniqueViolation } from '../../errors.js';
import type { ObjectStore } from '../../storage/object-store.js';
import { brandErrors } from './brands.errors.js';
import { checkLogo, parseBrandName, parseHexColor, type CheckedLogo } from './brand-rules.js';
import { deleteBrand, findBrand, insertBrand, listBrands, updateBrand, type NewBrand } from './brands.repository.js';
import type { BrandRow } from './brands.table.js';

export interface LogoUpload {
  filename: string;
  data: Buffer;
  truncated: boolean;
}

export type BrandsService = ReturnType<typeof createBrandsService>;

const logoKey = (brandId: string, filename: string) => `brands/${brandId}/${filename}`;

export function createBrandsService({ db, storage, logger }: { db: Db; storage: ObjectStore | null; logger: Logger }) {
  const requireStorage = (): ObjectStore => {
    if (!storage) throw brandErrors.storageNotConfigured();
    return storage;
  };

  const nameConflict = (err: unknown, name: string) => (isUniqueViolation(err, 'brands_name_lower_uq') ? brandErrors.nameTaken(name) : err);

  /** Best effort: a failed removal leaves an orphaned object, never a broken row. */
  const removeObject = async (key: string) => {
    try {
      await storage?.delete(key);
    } catch (err) {
      logger.warn({ err, key }, 'could not delete logo object; it is orphaned');
    }
  };

  return {
    list: (q?: string) => listBrands({ db, q }),

    async get(id: string): Promise<BrandRow> {
      const row = await findBrand({ db, id });
      if (!row) throw brandErrors.notFound();
      return row;
    },

    publicLogoUrl: (row: Pick<BrandRow, 'logoKey'>) => (row.logoKey && storage ? storage.publicUrl(row.logoKey) : null),

    async create(input: { name: string; primaryColor: string; secondaryColor?: string | undefined; logo?: LogoUpload | undefined }): Promise<BrandRow> {
      const name = parseBrandName(input.name);
      const values: NewBrand = {
        id: randomUUID(),
        name,
        primaryColor: parseHexColor('primary_color', input.primaryColor),
        secondaryColor: input.secondaryColor ? parseHexColor('secondary_color', input.secondaryColor) : null,
      };
      let logo: CheckedLogo | undefined;
      if (input.logo) {
        logo = await checkLogo(input.logo);
        const store = requireStorage();
        Object.assign(values, {
          logoFilename: logo.filename,
          logoKey: logoKey(values.id!, logo.filename),
          logoContentType: logo.contentType,
          logoSizeBytes: logo.data.length,
        });
        await store.put(values.logoKey!, logo.data, logo.contentType);
      }
      try {
        return await insertBrand({ db, values });
      } catch (err) {
        if (values.logoKey) await removeObject(values.logoKey);
        throw nameConflict(err, name);
      }
    },

    async update(
      id: string,
      input: {
        name?: string | undefined;
        primaryColor?: string | undefined;
        secondaryColor?: string | undefined;
        logo?: LogoUpload | undefined;
        clearLogo?: boolean | undefined;
      },
    ): Promise<BrandRow> {
      if (input.logo && input.clearLogo) throw brandErrors.logoConflict();
      const values: Partial<NewBrand> = {};
      if (input.name !== undefined) values.name = parseBrandName(input.name);
      if (input.primaryColor !== undefined) values.primaryColor = parseHexColor('primary_color', input.primaryColor);
      if (input.secondaryColor !== undefined) values.secondaryColor = input.secondaryColor ? parseHexColor('secondary_color', input.secondaryColor) : null;
      const current = await findBrand({ db, id });
      if (!current) throw brandErrors.notFound();

      let uploadedKey: string | undefined;
      let upload: (() => Promise<void>) | undefined;
      if (input.logo) {
        const logo = await checkLogo(input.logo);
        const store = requireStorage();
        const key = logoKey(id, logo.filename);
        Object.assign(values, { logoFilename: logo.filename, logoKey: key, logoContentType: logo.contentType, logoSizeBytes: logo.data.length });
        upload = async () => {
          uploadedKey = key;
          await store.put(key, logo.data, logo.contentType);
        };
      } else if (input.clearLogo && current.logoKey) {
        requireStorage();
        Object.assign(values, { logoFilename: null, logoKey: null, logoContentType: null, logoSizeBytes: null });
      }

      let previousKey: string | null = null;
      let updated: BrandRow;
      try {
        updated = await db.transaction(async (tx) => {
          const row = await findBrand({ db: tx, id, forUpdate: true });
          if (!row) throw brandErrors.notFound();
          previousKey = row.logoKey;
          const next = Object.keys(values).length ? await updateBrand({ db: tx, id, values }) : row;
          // Written only once the row update has passed (a 409 leaves the stored logo, which may
          // have the same key, untouched) and before the commit makes the row point at it.
          await upload?.();
          return next;
        });
      } catch (err) {
        if (uploadedKey && uploadedKey !== current.logoKey) await removeObject(uploadedKey);
        throw isAppError(err) ? err : nameConflict(err, values.name ?? current.name);
      }
      if (previousKey && previousKey !== updated.logoKey) await removeObject(previousKey);
      return updated;
    },

    async delete(id: string): Promise<void> {
      const current = await findBrand({ db, id });
      if (!current) throw brandErrors.notFound();
      if (current.logoKey) requireStorage();
      const key = await db.transaction(async (tx) => {
        const row = await findBrand({ db: tx, id, forUpdate: true });
        if (!row) throw brandErrors.notFound();
        await deleteBrand({ db: tx, id });
        return row.logoKey;
      });
      if (key) await removeObject(key);
    },
  };
}
