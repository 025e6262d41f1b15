import type { components } from '../../../generated/api-types.js';
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
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toBrandSummary(row: Pick<BrandRow, 'id' | 'name' | 'primaryColor' | 'secondaryColor'>, logoUrl: string | null): BrandSummaryDto {
  return { id: row.id, name: row.name, primary_color: row.primaryColor, secondary_color: row.secondaryColor, logo_url: logoUrl };
}
