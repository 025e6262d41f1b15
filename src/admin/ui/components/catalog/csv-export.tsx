/** CSV export of a catalog list. */
import { download } from '../../api.js';
import { ErrorBox, useAction } from '../common.js';

/** A CSV export button: downloads the file, shows progress and the API's error. */
export function ExportButton({ url, filename, label = 'Export CSV' }: { url: string; filename: string; label?: string }) {
  const run = useAction(() => download(url, filename));
  return (
    <span class="export">
      <button type="button" class="secondary" disabled={run.busy} onClick={() => void run.act()}>
        {run.busy ? 'Exporting...' : label}
      </button>
      <ErrorBox error={run.error} />
    </span>
  );
}
