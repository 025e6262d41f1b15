import type { components } from '../../../generated/api-types.js';
import { isoTimestamps } from '../shared/dto-fields.js';
import type { BrandRow } from './brands.table.js';

export type BrandDto = components['schemas']['Brand'];
export type BrandSummaryDto = components['schemas']['BrandSummary'];

export function toBrandDto(row: BrandRow, logoUrl: string | null): BrandDto {
  return {
    id: row.id,
    name: row.name,
    primary_color: row.primaryColor,
    secondary_color: row.secondaryColor,
    logo_filename: row.logoFilename,
    logo_content_type: row.logoContentType,
    logo_url: logoUrl,
    ...isoTimestamps(row),
  };
}

export function toBrandSummary(row: Pick<BrandRow, 'id' | 'name' | 'primaryColor' | 'secondaryColor'>, logoUrl: string | null): BrandSummaryDto {
  return { id: row.id, name: row.name, primary_color: row.primaryColor, secondary_color: row.secondaryColor, logo_url: logoUrl };
}
