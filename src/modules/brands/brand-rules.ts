/** Rules for brand input the contract leaves to the service (answers 400). */
import path from 'node:path';
import { brandErrors } from './brands.errors.js';

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
const LOGO_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** `#RGB` or `#RRGGBB` (any case) -> lowercase `#rrggbb`; anything else is a 400. */
export function parseHexColor(field: string, value: string): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!m) throw brandErrors.invalidColor(field, value);
  const hex = m[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

export function parseBrandName(value: string): string {
  const name = value.trim().replace(/\s+/g, ' ');
  if (!name) throw brandErrors.invalidName();
  return name;
}

export interface CheckedLogo {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Recognizes the image from its bytes (not its name or declared type) and makes a safe file name. */
export async function checkLogo(file: { filename: string; data: Buffer; truncated: boolean }): Promise<CheckedLogo> {
  if (file.truncated || file.data.length > LOGO_MAX_BYTES) throw brandErrors.logoTooLarge(LOGO_MAX_BYTES);
  if (file.data.length === 0) throw brandErrors.logoEmpty();
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(file.data);
  const ext = detected && LOGO_TYPES[detected.mime];
  if (!detected || !ext) throw brandErrors.logoType(detected?.mime);
  return { filename: safeFilename(file.filename, ext), contentType: detected.mime, data: file.data };
}

/** Base name of an upload reduced to [A-Za-z0-9._-], with the extension of its real type. */
export function safeFilename(original: string, ext: string): string {
  const base = path.posix.basename(original.replace(/\\/g, '/'));
  const stem = base.replace(/\.[^.]*$/, '');
  const clean = stem
    .normalize('NFKD')
    // Accents split off by NFKD are dropped (é -> e), not turned into separators.
    .replace(/\p{M}+/gu, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/[-.]{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return `${clean || 'logo'}.${ext}`;
}
