/** Building blocks shared by the operator pages. */
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

export function Page({ title, actions, children }: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} - Question-Play operators`;
  }, [title]);
  return (
    <section class="page">
      <header class="page-head">
        <h1>{title}</h1>
        {actions ? <div class="actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

/** Shows an error as the API worded it. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiError ? ` (${error.status})` : '';
  return (
    <div class="error" role="alert">
      <strong>Error{status}:</strong> <span class="error-detail">{text}</span>
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div class="notice" role="status">
      {children}
    </div>
  );
}

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs an async loader when its dependencies change; keeps the last data while reloading. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: null, loading: true });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === seq.current && setState({ data, error: null, loading: false }),
      (error) => mine === seq.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}

/** An action button that shows progress and the API's error. */
export function useAction<A extends unknown[]>(run: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await run(...args);
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { act, busy, error, setError };
}

export function Loading({ when }: { when: boolean }) {
  return when ? <p class="loading">Loading...</p> : null;
}

export function Field({ label, children, hint }: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    <label class="field">
      <span class="field-label">{label}</span>
      {children}
      {hint ? <small class="hint">{hint}</small> : null}
    </label>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onInput'>;

export function TextInput({ value, onValue, ...rest }: { value: string; onValue: (v: string) => void } & InputProps) {
  return <input {...rest} value={value} onInput={(e) => onValue((e.target as HTMLInputElement).value)} />;
}

/** A number field; empty means null (inherit). */
export function NumberInput({ value, onValue, ...rest }: { value: number | null | undefined; onValue: (v: number | null) => void } & InputProps) {
  return (
    <input
      type="number"
      {...rest}
      value={value === null || value === undefined ? '' : String(value)}
      onInput={(e) => {
        const raw = (e.target as HTMLInputElement).value;
        onValue(raw === '' ? null : Number(raw));
      }}
    />
  );
}

/**
 * The end of an editor form: the submit button ("Saving..." while `busy`),
 * the form's other buttons (`children`: close, undo...), the saved note, and
 * below them the save error.
 */
export function EditorActions({
  busy,
  saveLabel,
  saved,
  error,
  children,
}: {
  busy: boolean;
  saveLabel: string;
  saved: ComponentChildren;
  error: unknown;
  children?: ComponentChildren;
}) {
  return (
    <>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving...' : saveLabel}
        </button>
        {children}
        {saved ? <Notice>{saved}</Notice> : null}
      </div>
      <ErrorBox error={error} />
    </>
  );
}

export function Checkbox({ checked, onValue, label }: { checked: boolean; onValue: (v: boolean) => void; label: string }) {
  return (
    <label class="check">
      <input type="checkbox" checked={checked} onChange={(e) => onValue((e.target as HTMLInputElement).checked)} /> {label}
    </label>
  );
}

/**
 * JSON text for an object field (period maps, expressions, rules): parsed on
 * every change; the parse error shows below and the value stays the last
 * valid one.
 */
export function JsonField({ value, onValue, rows = 6, label }: { value: unknown; onValue: (v: unknown) => void; rows?: number; label: string }) {
  const [text, setText] = useState(() => JSON.stringify(value ?? null, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(JSON.stringify(value ?? null, null, 2));
      setProblem(null);
    }
  }, [value]);
  return (
    <Field label={label}>
      <textarea
        class="mono"
        rows={rows}
        value={text}
        spellcheck={false}
        onInput={(e) => {
          const t = (e.target as HTMLTextAreaElement).value;
          setText(t);
          try {
            const parsed = t.trim() === '' ? null : JSON.parse(t);
            last.current = parsed;
            setProblem(null);
            onValue(parsed);
          } catch (err) {
            setProblem((err as Error).message);
          }
        }}
      />
      {problem ? <small class="error-inline">Not valid JSON: {problem}</small> : null}
    </Field>
  );
}

/** A column of a `Table`: its heading, the cell of a row, and a class for both. */
export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
  class?: string;
}

export function Table<T>({
  rows,
  columns,
  empty = 'Nothing here yet.',
  rowKey,
}: {
  rows: T[];
  columns: Column<T>[];
  empty?: string;
  rowKey: (row: T) => string;
}) {
  if (!rows.length) return <p class="empty">{empty}</p>;
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th class={c.class}>{c.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td class={c.class}>{c.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export const fmtTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '-');

export function Badge({ children, tone = 'neutral' }: { children: ComponentChildren; tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'live' }) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

/**
 * An identifier (an event type, a gate id, a provider event id) that may wrap
 * only between its words, after `_`, `.`, `:` or `-`, never inside a word.
 */
export function Token({ children }: { children: string }) {
  const parts = children.split(/(?<=[_.:-])/);
  return (
    <code class="token">
      {parts.map((part, i) => (
        <>
          {i ? <wbr /> : null}
          {part}
        </>
      ))}
    </code>
  );
}

/** A progress bar for long operations (uploads, imports, replays). */
export function Progress({ value, label }: { value: number | null; label: string }) {
  return (
    <div
      class="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value === null ? undefined : Math.round(value * 100)}
    >
      <div class={`progress-bar${value === null ? ' indeterminate' : ''}`} style={value === null ? undefined : { width: `${Math.round(value * 100)}%` }} />
      <span class="progress-label">{label}</span>
    </div>
  );
}
