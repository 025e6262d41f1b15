/**
 * Pieces shared by the question catalog pages (question groups, in-game and
 * Match question definitions, brands): the inline editor of
 * a list, CSV export and the dry-run-then-apply CSV import, the definition
 * list filters, the override fields, the choices editor and the live preview.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, ApiError, download, formatDetail, unwrap, uploadWithProgress } from '../api.js';
import { setQuery } from '../router.js';
import { Checkbox, ErrorBox, Field, JsonField, NumberInput, Progress, TextInput, useAction } from './common.js';
import { LeagueSelect, rememberLeague, usePreferredLeague } from './leagues.js';

type ImportResult = components['schemas']['ImportResult'];
type ImportRowAction = components['schemas']['ImportRowAction'];
export type ChoiceTemplate = components['schemas']['ChoiceTemplate'];
export type SampleCatalog = components['schemas']['SampleCatalog'];
type QuestionPreview = components['schemas']['QuestionPreview'];
type QuestionPreviewRequest = components['schemas']['QuestionPreviewRequest'];

/** The value, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * The league of a league page: the address's, else the preferred one (last
 * chosen, else the one with matches today), written back to the address. The
 * league shown is remembered for the next league page.
 */
export function useLeagueParam(query: URLSearchParams): string {
  const preferred = usePreferredLeague();
  const fromQuery = query.get('league') ?? '';
  const league = fromQuery || preferred;
  useEffect(() => {
    if (!fromQuery && league) setQuery({ league });
    if (league) rememberLeague(league);
  }, [fromQuery, league]);
  return league;
}

/**
 * The inline editor of a list page (brands, question groups): which row is
 * open (`'new'` for a create form), the "Saved." flash kept when a create
 * form turns into the created row's editor, and the page's notice.
 */
export function useInlineEditor() {
  const [editing, setEditing] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const close = () => {
    setCreated(null);
    setEditing(null);
  };
  return {
    editing,
    notice,
    setNotice,
    /** The open editor belongs to the row just created: it opens with "Saved.". */
    flash: created === editing,
    /** The open row of `rows`: null for a create form, undefined when none is open (or it is not listed). */
    openOf: <T extends { id: string }>(rows: T[] | undefined): T | null | undefined => (editing === 'new' ? null : (rows ?? []).find((r) => r.id === editing)),
    openNew: () => {
      setNotice(null);
      setEditing('new');
    },
    /** Opens the row's editor, or closes it when it is the open one. */
    toggle: (id: string) => {
      setNotice(null);
      setCreated(null);
      setEditing(editing === id ? null : id);
    },
    /** After a save: a created row stays open, as itself. */
    saved: (id: string) => {
      if (editing === 'new') {
        setCreated(id);
        setEditing(id);
      }
    },
    close,
    /** Closes the editor if it shows this row (a deleted one). */
    closeIf: (id: string) => {
      if (editing === id) close();
    },
  };
}

/** A row's Edit button of an inline editor; "Close" while that row is open. */
export function EditToggle({ editor, id }: { editor: ReturnType<typeof useInlineEditor>; id: string }) {
  return (
    <button type="button" class="small" onClick={() => editor.toggle(id)}>
      {editor.editing === id ? 'Close' : 'Edit'}
    </button>
  );
}

/** The per-question overrides a group or in-game definition may set; blank inherits. */
export interface QuestionOverrides {
  answer_window_seconds?: number | null;
  points?: number | null;
  probability?: number | null;
}

/** The fields of `QuestionOverrides` (answer window, points, probability), each "Blank inherits". */
export function QuestionOverrideFields({ values, onValue }: { values: QuestionOverrides; onValue: (key: keyof QuestionOverrides, value: number | null) => void }) {
  return (
    <>
      <Field label="Answer window (s)" hint="Blank inherits">
        <NumberInput value={values.answer_window_seconds} min={1} max={86400} onValue={(v) => onValue('answer_window_seconds', v)} />
      </Field>
      <Field label="Points" hint="Blank inherits">
        <NumberInput value={values.points} min={0} max={100000} onValue={(v) => onValue('points', v)} />
      </Field>
      <Field label="Probability (0 to 1)" hint="Blank inherits">
        <NumberInput value={values.probability} min={0} max={1} step="0.05" onValue={(v) => onValue('probability', v)} />
      </Field>
    </>
  );
}

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
          <strong>{result.errors.length}</strong> row errors
        </li>
      </ul>
      {result.errors.length ? (
        <div class="import-rows import-errors">
          <h3>
            Row errors <small>({result.errors.length})</small>
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
        The file is checked first (a dry run: nothing is written). Rows with a blank id create, rows with an id replace that definition, definitions absent from the file are left alone.
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
      {busy ? <Progress value={progress !== null && progress < 1 ? progress : null} label={progress !== null && progress < 1 ? `Uploading ${Math.round(progress * 100)}%` : phase === 'checking' ? 'Checking the rows...' : 'Applying...'} /> : null}
      <ErrorBox error={error} />
      {result ? <ImportSummary result={result.body} refused={result.refused} /> : null}
      {phase === 'checked' && r && r.errors.length ? <p class="hint">Fix the row errors and check again: an import with a row error is refused as a whole.</p> : null}
      {phase === 'checked' && r && !r.errors.length && !r.creates.length && !r.updates.length ? <p class="hint">Nothing to apply: every row equals the stored definition.</p> : null}
    </section>
  );
}

/** A UTC calendar day (yyyy-mm-dd) as the instant it starts. */
export const dayStart = (day: string) => (day ? `${day}T00:00:00Z` : undefined);

/** The filters of a definition list, all kept in the query string. */
export function DefinitionFilters({ query, league, archivedLabel, pivotal }: { query: URLSearchParams; league: string; archivedLabel: string; pivotal: boolean }) {
  const date = (key: string, label: string) => (
    <Field label={label}>
      <input type="date" value={query.get(key) ?? ''} onInput={(e) => setQuery({ [key]: (e.target as HTMLInputElement).value })} />
    </Field>
  );
  return (
    <div class="filters definition-filters">
      <Field label="League">
        <LeagueSelect value={league} onValue={(v) => setQuery({ league: v, edit: undefined })} />
      </Field>
      <Field label="Search (name or id)">
        <TextInput type="search" value={query.get('q') ?? ''} onValue={(v) => setQuery({ q: v })} />
      </Field>
      {pivotal ? (
        <Field label="Pivotal">
          <select value={query.get('pivotal') ?? ''} onChange={(e) => setQuery({ pivotal: (e.target as HTMLSelectElement).value })} aria-label="Pivotal">
            <option value="">Any</option>
            <option value="true">Pivotal only</option>
            <option value="false">Regular only</option>
          </select>
        </Field>
      ) : null}
      {date('created_from', 'Created from (UTC)')}
      {date('created_to', 'Created before (UTC)')}
      {date('updated_from', 'Updated from (UTC)')}
      {date('updated_to', 'Updated before (UTC)')}
      <Checkbox checked={query.get('archived') === 'true'} onValue={(v) => setQuery({ archived: v ? 'true' : undefined })} label={archivedLabel} />
    </div>
  );
}

/** The list query of both definition kinds from the page's query string. */
export function definitionListQuery(query: URLSearchParams) {
  const q = query.get('q') ?? '';
  const range = (key: string) => dayStart(query.get(key) ?? '');
  const out: { include_inactive?: boolean; q?: string; created_from?: string; created_to?: string; updated_from?: string; updated_to?: string } = {};
  if (query.get('archived') === 'true') out.include_inactive = true;
  if (q) out.q = q;
  for (const key of ['created_from', 'created_to', 'updated_from', 'updated_to'] as const) {
    const v = range(key);
    if (v) out[key] = v;
  }
  return out;
}

/** Choice rows: identifier and label template, added and removed. */
export function ChoicesEditor({ choices, onValue }: { choices: ChoiceTemplate[]; onValue: (c: ChoiceTemplate[]) => void }) {
  const set = (i: number, patch: Partial<ChoiceTemplate>) => onValue(choices.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <fieldset class="rows wide">
      <legend>Choices</legend>
      <div class="row choice-row choice-head" aria-hidden="true">
        <span>Identifier</span>
        <span>Label template (Liquid)</span>
        <span />
      </div>
      {choices.map((c, i) => (
        <div class="row choice-row">
          <input class="mono ident" aria-label={`Choice ${i + 1} identifier`} placeholder="identifier" value={c.identifier} onInput={(e) => set(i, { identifier: (e.target as HTMLInputElement).value })} />
          <input class="mono" aria-label={`Choice ${i + 1} label template`} placeholder="label template, e.g. {{ match.home_team }}" value={c.label_template} onInput={(e) => set(i, { label_template: (e.target as HTMLInputElement).value })} />
          <button type="button" class="secondary small" aria-label={`Remove choice ${i + 1}`} disabled={choices.length <= 2} onClick={() => onValue(choices.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <div>
        <button type="button" class="secondary small" disabled={choices.length >= 10} onClick={() => onValue([...choices, { identifier: '', label_template: '' }])}>
          Add choice
        </button>
        <small class="hint"> 2 to 10 choices; identifiers are lowercase letters, digits, - and _.</small>
      </div>
    </fieldset>
  );
}

const catalogs = new Map<string, Promise<SampleCatalog>>();

/** The league's sample catalog (event types with a sample event each), loaded once per league. */
/** A league's question groups (for the group choice of both definition editors). */
export const loadGroups = (league: string) => unwrap(() => api.GET('/api/question-groups', { params: { query: { league } } }));

export function loadSampleCatalog(league: string): Promise<SampleCatalog> {
  let found = catalogs.get(league);
  if (!found) {
    found = unwrap(() => api.GET('/api/question-definitions/sample-catalog', { params: { query: { league } } }));
    found.catch(() => catalogs.delete(league));
    catalogs.set(league, found);
  }
  return found;
}

const isEmptyObject = (v: unknown) => v === null || v === undefined || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/**
 * The live preview: POST /api/question-definitions/preview, debounced, on
 * every change of what it renders; shows the rendered text and choices or the
 * API's 400/404 detail.
 */
export function PreviewPanel({
  league,
  template,
  choices,
  extract,
  catalog,
  eventType,
  matchOverrides,
  eventControls = true,
  note,
}: {
  league: string;
  template: string;
  choices: ChoiceTemplate[];
  extract?: Record<string, string> | null;
  catalog: SampleCatalog | undefined;
  /** The sample event type to start with (the trigger's). */
  eventType: string;
  matchOverrides?: Record<string, unknown>;
  eventControls?: boolean;
  note?: ComponentChildren;
}) {
  const [sampleType, setSampleType] = useState<string>('');
  const [inline, setInline] = useState<unknown>(null);
  const [state, setState] = useState<unknown>(null);
  const type = sampleType || eventType || catalog?.event_types[0]?.type || '';
  const complete = choices.filter((c) => c.identifier.trim() && c.label_template.trim());
  const request: QuestionPreviewRequest | null =
    league && type && template.trim()
      ? {
          league,
          question_text_template: template,
          choices: complete,
          ...(!isEmptyObject(inline) && typeof inline === 'object' && !Array.isArray(inline) ? { sample_event: { type, ...(inline as object) } } : { sample_event_type: type }),
          ...(!isEmptyObject(state) && typeof state === 'object' && !Array.isArray(state) ? { store_state: state as Record<string, unknown> } : {}),
          ...(extract && Object.keys(extract).length ? { issuance_state_extract: extract } : {}),
          ...(matchOverrides ? { match: matchOverrides } : {}),
        }
      : null;
  const key = useDebounced(request ? JSON.stringify(request) : '', 300);
  const [out, setOut] = useState<{ preview: QuestionPreview | null; error: unknown; busy: boolean }>({ preview: null, error: null, busy: false });
  const seq = useRef(0);
  useEffect(() => {
    if (!key) return;
    const mine = ++seq.current;
    setOut((o) => ({ ...o, busy: true }));
    unwrap(() => api.POST('/api/question-definitions/preview', { body: JSON.parse(key) as QuestionPreviewRequest })).then(
      (preview) => mine === seq.current && setOut({ preview, error: null, busy: false }),
      (error) => mine === seq.current && setOut({ preview: null, error, busy: false }),
    );
  }, [key]);
  const pending = out.busy || (request ? JSON.stringify(request) !== key : false);
  const p = out.preview;
  return (
    <aside class="card preview-panel" aria-label="Live preview">
      <div class="preview-head">
        <h2>Live preview</h2>
        <span class="preview-status" role="status">
          {pending ? 'Rendering...' : out.error ? 'Failed' : p ? 'Up to date' : ''}
        </span>
      </div>
      {note ? <p class="hint">{note}</p> : null}
      {eventControls ? (
        <>
          <Field label="Sample event">
            <select value={sampleType} onChange={(e) => setSampleType((e.target as HTMLSelectElement).value)}>
              <option value="">Trigger's type ({eventType || 'none'})</option>
              {(catalog?.event_types ?? []).map((t) => (
                <option value={t.type}>{t.type}</option>
              ))}
            </select>
          </Field>
          <details class="preview-inputs">
            <summary>Inline sample event and state store</summary>
            <JsonField label="Inline sample event (JSON, optional; missing fields come from the catalog sample)" value={inline} onValue={setInline} rows={4} />
            <JsonField label="State store contents (JSON, optional)" value={state} onValue={setState} rows={3} />
          </details>
        </>
      ) : (
        <details class="preview-inputs">
          <summary>State store</summary>
          <JsonField label="State store contents (JSON, optional)" value={state} onValue={setState} rows={3} />
        </details>
      )}
      {!request ? <p class="empty">Write a question text template to see it rendered.</p> : null}
      <ErrorBox error={request ? out.error : null} />
      {request && p ? (
        <div class={`preview${pending ? ' stale' : ''}`} aria-label="Rendered question">
          <p class="question">{p.question_text}</p>
          <ul>
            {p.choices.map((c) => (
              <li>
                <span class="choice-label">{c.label}</span> <code>{c.identifier}</code>
              </li>
            ))}
          </ul>
          {complete.length < choices.length ? <small class="hint">Choices without an identifier or label are left out.</small> : null}
        </div>
      ) : null}
      {request && p && Object.keys(p.extract).length ? (
        <details>
          <summary>Extract (issuance snapshot)</summary>
          <pre class="json">{JSON.stringify(p.extract, null, 2)}</pre>
        </details>
      ) : null}
      {request && p && eventControls ? (
        <details>
          <summary>Event and match used</summary>
          <pre class="json">{JSON.stringify({ event: p.event, match: p.match, state: p.state }, null, 2)}</pre>
        </details>
      ) : null}
    </aside>
  );
}

/** An inline "name of the copy" prompt for cloning; a blank name takes the API's default. */
export function ClonePrompt({ original, onClone, onCancel, busy }: { original: string; onClone: (name: string | undefined) => void; onCancel: () => void; busy: boolean }) {
  const [name, setName] = useState('');
  return (
    <form
      class="card clone-prompt"
      aria-label={`Clone ${original}`}
      onSubmit={(e) => {
        e.preventDefault();
        onClone(name.trim() ? name : undefined);
      }}
    >
      <Field label={`Name of the copy of "${original}"`} hint="Leave blank for the default name: the original name followed by (copy).">
        <TextInput value={name} onValue={setName} placeholder={`${original} (copy)`} maxLength={200} />
      </Field>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Cloning...' : 'Clone'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
