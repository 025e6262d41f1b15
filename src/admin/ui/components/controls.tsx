/**
 * Small controls of the operations pages (match detail, listeners, users,
 * feedback, push): polling, paging, two-step confirmations, UTC day ranges,
 * forms saved as a PATCH of what changed.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { setQuery } from '../router.js';
import { useAction } from './common.js';

/** Calls `tick` every `ms` while `active` (the latest `tick`, without restarting the timer on every render). */
export function usePolling(tick: () => void, ms: number, active: boolean): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export const utcDayOf = (iso: string | Date = new Date()) => new Date(iso).toISOString().slice(0, 10);

/** The UTC calendar day as the API's `[from, to)` pair. */
export const utcDayRange = (day: string) => ({ from: `${day}T00:00:00Z`, to: new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString() });

export const shortId = (id: string | null | undefined) => (id ? id.slice(0, 8) : '-');

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A local date and time for table cells, always with its date (a board or a
 * list mixes rows of many days): `Nov 28, 2026, 14:05:09`.
 */
export const fmtWhen = (iso: string | null | undefined) =>
  iso
    ? new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : '-';

/** Match clock as minutes and seconds (`23:14`); `-` when unknown. */
export const fmtClock = (seconds: number | null | undefined) => {
  if (seconds === null || seconds === undefined) return '-';
  const m = Math.floor(seconds / 60);
  const s = Math.floor(seconds % 60);
  return `${m}:${String(s).padStart(2, '0')}`;
};

const queryInt = (v: string | null, fallback: number) => {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n >= 0 ? n : fallback;
};

/** Offset/limit paging kept in the query string (`offset`; `limit`, 25 unless given, at most 500), with the `Pager`'s handlers. */
export function queryPaging(query: URLSearchParams) {
  return {
    offset: queryInt(query.get('offset'), 0),
    limit: Math.min(500, Math.max(1, queryInt(query.get('limit'), 25))),
    onOffset: (o: number) => setQuery({ offset: o ? String(o) : undefined }),
    onLimit: (l: number) => setQuery({ limit: String(l), offset: undefined }),
  };
}

/** Offset/limit paging with the filtered total the API reports. */
export function Pager({
  offset,
  limit,
  total,
  onOffset,
  onLimit,
  label,
  sizes = [10, 25, 50, 100, 200],
}: {
  offset: number;
  limit: number;
  total: number;
  onOffset: (o: number) => void;
  onLimit: (l: number) => void;
  label: string;
  /** The page sizes offered. */
  sizes?: number[];
}) {
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <span class="pager-count">
        {first}-{last} of {total} {label}
      </span>
      <button type="button" class="secondary" disabled={offset <= 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        Previous
      </button>
      <button type="button" class="secondary" disabled={offset + limit >= total} onClick={() => onOffset(offset + limit)}>
        Next
      </button>
      <label class="check">
        Per page
        <select value={String(limit)} onChange={(e) => onLimit(Number((e.target as HTMLSelectElement).value))} aria-label="Rows per page">
          {sizes.map((n) => (
            <option value={String(n)}>{n}</option>
          ))}
        </select>
      </label>
    </nav>
  );
}

/**
 * A button that asks again before doing something that cannot be undone:
 * the first click shows the question with the confirm button (`confirmLabel`,
 * "Yes, <label>" unless given) and Cancel; `small` in table rows.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel = `Yes, ${label.toLowerCase()}`,
  onConfirm,
  busy,
  small = false,
}: {
  label: string;
  question: string;
  confirmLabel?: string;
  onConfirm: () => void;
  busy?: boolean;
  small?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const size = small ? ' small' : '';
  if (!asking) {
    return (
      <button type="button" class={`danger${size}`} disabled={busy} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span class={small ? 'confirm confirm-inline' : 'confirm'} role="group" aria-label={question}>
      <span class="confirm-question">{question}</span>
      <button
        type="button"
        class={`danger${size}`}
        disabled={busy}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" class={`secondary${size}`} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** A select of a boolean filter: any, true or false (as query-string values). */
export function TriSelect({
  value,
  onValue,
  label,
  any,
  yes,
  no,
}: {
  value: string;
  onValue: (v: string) => void;
  label: string;
  any: string;
  yes: string;
  no: string;
}) {
  return (
    <select value={value} aria-label={label} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
      <option value="">{any}</option>
      <option value="true">{yes}</option>
      <option value="false">{no}</option>
    </select>
  );
}

/** A section of a page with a heading and optional tools on the right. */
export function Section({ title, id, tools, children }: { title: ComponentChildren; id?: string; tools?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="section" id={id} aria-labelledby={id ? `${id}-title` : undefined}>
      <header class="section-head">
        <h2 id={id ? `${id}-title` : undefined}>{title}</h2>
        {tools ? <div class="section-tools">{tools}</div> : null}
      </header>
      {children}
    </section>
  );
}

/**
 * A form saved as a PATCH of only the fields that differ (as JSON) from the
 * stored record's (`formOf(stored)`): `changed` names them, save sends them
 * ("Nothing changed." when none), then restarts the form from the API's
 * answer and says `savedText(changed)`.
 */
export function usePatchForm<F extends object, R>({
  stored,
  formOf,
  send,
  savedText,
  onSaved,
}: {
  stored: R;
  formOf: (r: R) => F;
  send: (changes: Partial<F>) => Promise<R>;
  savedText: (changed: (keyof F)[]) => string;
  onSaved: (r: R) => void;
}) {
  const [form, setForm] = useState<F>(() => formOf(stored));
  const [saved, setSaved] = useState<string | null>(null);
  const base = formOf(stored);
  const changed = (Object.keys(form) as (keyof F)[]).filter((k) => JSON.stringify(form[k]) !== JSON.stringify(base[k]));
  const set =
    <K extends keyof F>(key: K) =>
    (value: F[K]) =>
      setForm((f) => ({ ...f, [key]: value }));
  const save = useAction(async () => {
    setSaved(null);
    if (!changed.length) {
      setSaved('Nothing changed.');
      return;
    }
    const updated = await send(Object.fromEntries(changed.map((k) => [k, form[k]])) as Partial<F>);
    setForm(formOf(updated));
    setSaved(savedText(changed));
    onSaved(updated);
  });
  /** Back to the stored values. */
  const undo = () => setForm(base);
  return { form, set, changed, save, saved, setSaved, undo };
}
