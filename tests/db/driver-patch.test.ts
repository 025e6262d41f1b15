/**
 * The service starts only on the patched postgres.js (src/db/driver-patch.ts):
 * the installed driver carries the patch's mark, and a driver without it (a
 * reinstall that skipped patch-package, another version) is refused with
 * what to do.
 */
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { assertDriverPatched, DRIVER_PATCH_MARK } from '../../src/db/driver-patch.js';

describe('the patched database driver', () => {
  it('is what npm install left in node_modules', () => {
    expect((postgres as unknown as { questionPlayPatch?: string }).questionPlayPatch).toBe(DRIVER_PATCH_MARK);
    expect(() => assertDriverPatched(postgres)).not.toThrow();
  });

  it('is required: an unpatched or differently patched driver is refused, saying how to fix it', () => {
    const unpatched = Object.assign(() => {}, { PostgresError: Error });
    expect(() => assertDriverPatched(unpatched)).toThrow(/not patched.*npm install/);
    expect(() => assertDriverPatched(Object.assign(() => {}, { questionPlayPatch: 'postgres@3.5.0' }))).toThrow(/another patch.*npm ci/);
  });
});
