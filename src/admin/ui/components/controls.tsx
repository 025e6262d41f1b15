/**
 * Small controls of the operations pages (match detail, listeners, users,
 * feedback, push): polling, paging, two-step confirmations, UTC day ranges.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

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

/** A compact local time for table cells: the time today, else the date and time. */
export const fmtWhen = (iso: string | null | undefined) => {
  if (!iso) return '-';
  const d = new Date(iso);
  const today = d.toDateString() === new Date().toDateString();
  return today ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
};

/** Match clock as minutes and seconds (`23:14`); `-` when unknown. */
export const fmtClock = (seconds: number | null | undefined) => {
  if (seconds === null || seconds === undefined) return '-';
  const m = Math.floor(seconds / 60);
  const s = Math.floor(seconds % 60);
  return `${m}:${String(s).padStart(2, '0')}`;
};

/** Offset/limit paging with the filtered total the API reports. */
export function Pager({ offset, limit, total, onOffset, onLimit, label }: { offset: number; limit: number; total: number; onOffset: (o: number) => void; onLimit: (l: number) => void; label: string }) {
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
          {[10, 25, 50, 100, 200].map((n) => (
            <option value={String(n)}>{n}</option>
          ))}
        </select>
      </label>
    </nav>
  );
}

/**
 * A button that asks again before doing something that cannot be undone:
 * the first click shows the question with Confirm and Cancel.
 */
export function ConfirmButton({ label, question, confirmLabel, onConfirm, busy, tone = 'danger' }: { label: string; question: ComponentChildren; confirmLabel: string; onConfirm: () => void; busy?: boolean; tone?: 'danger' | 'secondary' }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class={tone} disabled={busy} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={`Confirm: ${label}`}>
      <span class="confirm-question">{question}</span>
      <button
        type="button"
        class="danger"
        disabled={busy}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** A select of a boolean filter: any, true or false (as query-string values). */
export function TriSelect({ value, onValue, label, any, yes, no }: { value: string; onValue: (v: string) => void; label: string; any: string; yes: string; no: string }) {
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
