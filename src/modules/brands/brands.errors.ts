/** Every error the brands module answers with: its status, its stable code (X-Error-Code) and its message. */
import { errorFactory, quote } from '../../errors.js';

export const brandErrors = {
  /** `id` is named when the brand was referenced by another resource (a match's sponsor). */
  notFound: errorFactory(404, 'brand.not_found', (id?: string) => (id === undefined ? 'brand not found' : `brand ${id} not found`)),
  nameTaken: errorFactory(409, 'brand.name_taken', (name: string) => `a brand named ${quote(name)} already exists`),
  invalidName: errorFactory(400, 'brand.invalid_name', () => 'name must not be blank'),
  invalidColor: errorFactory(
    400,
    'brand.invalid_color',
    (field: string, value: string) => `${field} must be a hex color like #ff5500 or #f50, got ${quote(value)}`,
  ),
  logoConflict: errorFactory(400, 'brand.logo_conflict', () => 'send either a new logo or clear_logo=true, not both'),
  logoTooLarge: errorFactory(400, 'brand.logo_too_large', (maxBytes: number) => `logo must be at most ${maxBytes / 1024 / 1024} MiB`),
  logoEmpty: errorFactory(400, 'brand.logo_empty', () => 'logo file is empty'),
  logoType: errorFactory(
    400,
    'brand.logo_type',
    (detected: string | undefined) => `logo must be a PNG, JPEG, GIF or WebP image; this file's content is ${detected ?? 'not a recognized image'}`,
  ),
  storageNotConfigured: errorFactory(
    503,
    'storage.not_configured',
    () => 'logo storage is not configured: set S3_BUCKET (and S3_ENDPOINT, credentials) to upload or remove logos',
  ),
};
