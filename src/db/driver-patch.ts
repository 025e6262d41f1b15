/**
 * The service runs postgres.js with patches/postgres+3.4.9.patch applied (by
 * patch-package at `npm install`; bundled into dist/ by `npm run build`).
 * Without it a lost connection can run a transaction's statements outside the
 * transaction (porsager/postgres#1155, #1186, #1215) and a statement failed
 * in its rows corrupts the next one's (#1119, #1181): so the service refuses
 * to start on an unpatched driver instead of running with those faults. The
 * patch marks the driver's default export; docs/decisions.md has the why.
 */
export const DRIVER_PATCH_MARK = 'postgres@3.4.9 #1119 #1155';

export function assertDriverPatched(postgres: unknown): void {
  const mark = (postgres as { questionPlayPatch?: unknown }).questionPlayPatch;
  if (mark === DRIVER_PATCH_MARK) return;
  throw new Error(
    mark === undefined
      ? 'postgres.js is not patched (patches/postgres+3.4.9.patch): run `npm install` (or `npx patch-package`) so the patch is applied; a different postgres.js version needs the patch checked and regenerated (docs/decisions.md)'
      : `postgres.js carries another patch (${String(mark)}, expected ${DRIVER_PATCH_MARK}): reinstall with \`npm ci\``,
  );
}
