/** CSV import of a catalog list: a dry run with its preview, then apply. */
import { useState } from 'preact/hooks';
import type { components } from '../../../../../generated/api-types.js';
import { ApiError, formatDetail, uploadWithProgress } from '../../api.js';
import { ErrorBox, Progress } from '../common.js';

type ImportResult = components['schemas']['ImportResult'];
type ImportRowAction = components['schemas']['ImportRowAction'];

function RowActions({ title, rows, changed }: { title: string; rows: ImportRowAction[]; changed?: boolean }) {
  if (!rows.length) return null;
  return (
    <div class="import-rows">
      <h3>
        {title} <small>({rows.length})</small>
      </h3>
      <ul>
        {rows.map((r) => (
          <li>
            <span class="row-no">line {r.row}</span> <strong>{r.name}</strong> <small>({r.league})</small>
            {changed && r.changed_fields?.length ? (
              <span class="changed">
                {' '}
                changes{' '}
                {r.changed_fields.map((f) => (
                  <code>{f}</code>
                ))}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What an import would do (dry run) or did: creates, updates with their changed fields, unchanged rows, row errors. */
export function ImportSummary({ result, refused }: { result: ImportResult; refused: boolean }) {
  return (
    <div class="import-result" aria-label="Import result">
      <p class={refused ? 'error' : 'notice'} role={refused ? 'alert' : 'status'}>
        {refused ? <strong>Refused (400): </strong> : null}
        {result.detail}
      </p>
      <ul class="import-counts">
        <li>
          <strong>{result.creates.length}</strong> {result.applied ? 'created' : 'to create'}
        </li>
        <li>
          <strong>{result.updates.length}</strong> {result.applied ? 'updated' : 'to update'}
        </li>
        <li>
          <strong>{result.unchanged.length}</strong> unchanged
        </li>
        <li class={result.errors.length ? 'bad' : ''}>
          <strong>{result.error_count}</strong> row errors
        </li>
      </ul>
      {result.errors.length ? (
        <div class="import-rows import-errors">
          <h3>
            Row errors{' '}
            <small>({result.error_count > result.errors.length ? `the first ${result.errors.length} of ${result.error_count}` : result.errors.length})</small>
          </h3>
          <ul>
            {result.errors.map((e) => (
              <li>
                <span class="row-no">{e.row === null ? 'file' : `line ${e.row}`}</span>
                {e.field ? <code>{e.field}</code> : null} {e.detail}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <RowActions title="Creates" rows={result.creates} />
      <RowActions title="Updates" rows={result.updates} changed />
      {result.unchanged.length ? (
        <details>
          <summary>Unchanged ({result.unchanged.length})</summary>
          <RowActions title="Unchanged" rows={result.unchanged} />
        </details>
      ) : null}
    </div>
  );
}

/**
 * CSV import: the chosen file is uploaded (with a progress bar) as a dry run,
 * its preview shown, and "Apply" uploads it again with dry_run=false. A
 * refused import (400) shows its row errors.
 */
export function CsvImport({ url, noun, onApplied, onClose }: { url: string; noun: string; onApplied: () => void; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [phase, setPhase] = useState<'idle' | 'checking' | 'checked' | 'applying' | 'applied'>('idle');
  const [result, setResult] = useState<{ body: ImportResult; refused: boolean } | null>(null);
  const [error, setError] = useState<unknown>(null);

  const send = async (dryRun: boolean) => {
    if (!file) return;
    setError(null);
    setResult(null);
    setProgress(0);
    setPhase(dryRun ? 'checking' : 'applying');
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const res = await uploadWithProgress(`${url}?dry_run=${dryRun}`, form, setProgress);
      const body = res.body as ImportResult | null;
      if ((res.status === 200 || res.status === 400) && body && Array.isArray(body.errors)) {
        setResult({ body, refused: res.status === 400 });
        setPhase(res.status === 200 ? (dryRun ? 'checked' : 'applied') : 'idle');
        if (res.status === 200 && !dryRun) onApplied();
      } else {
        setError(new ApiError(res.status, formatDetail(body, res.status), body));
        setPhase('idle');
      }
    } catch (err) {
      setError(err);
      setPhase('idle');
    } finally {
      setProgress(null);
    }
  };

  const busy = phase === 'checking' || phase === 'applying';
  const r = result?.body;
  const canApply = phase === 'checked' && r && !r.errors.length && r.creates.length + r.updates.length > 0;
  return (
    <section class="card csv-import" aria-label={`Import ${noun} CSV`}>
      <div class="csv-import-head">
        <h2>Import {noun} from CSV</h2>
        <button type="button" class="link" onClick={onClose}>
          Close
        </button>
      </div>
      <p class="hint">
        The file is checked first (a dry run: nothing is written). Rows with a blank id create, rows with an id replace that definition, definitions absent from
        the file are left alone.
      </p>
      <div class="form-actions">
        <input
          type="file"
          accept=".csv,text/csv"
          aria-label="CSV file"
          disabled={busy}
          onChange={(e) => {
            setFile((e.target as HTMLInputElement).files?.[0] ?? null);
            setResult(null);
            setError(null);
            setPhase('idle');
          }}
        />
        <button type="button" disabled={!file || busy} onClick={() => void send(true)}>
          {phase === 'checking' ? 'Checking...' : 'Check (dry run)'}
        </button>
        {phase === 'checked' || phase === 'applying' ? (
          <button type="button" disabled={!canApply || busy} onClick={() => void send(false)}>
            {phase === 'applying' ? 'Applying...' : 'Apply'}
          </button>
        ) : null}
      </div>
      {busy ? (
        <Progress
          value={progress !== null && progress < 1 ? progress : null}
          label={progress !== null && progress < 1 ? `Uploading ${Math.round(progress * 100)}%` : phase === 'checking' ? 'Checking the rows...' : 'Applying...'}
        />
      ) : null}
      <ErrorBox error={error} />
      {result ? <ImportSummary result={result.body} refused={result.refused} /> : null}
      {phase === 'checked' && r && r.errors.length ? (
        <p class="hint">Fix the row errors and check again: an import with a row error is refused as a whole.</p>
      ) : null}
      {phase === 'checked' && r && !r.errors.length && !r.creates.length && !r.updates.length ? (
        <p class="hint">Nothing to apply: every row equals the stored definition.</p>
      ) : null}
    </section>
  );
}
