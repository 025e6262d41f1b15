/**
 * Listener views shared by the match detail and listeners pages: the status
 * badge, the table with progress and downloads, and the polling log viewer.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, download, unwrap } from '../api.js';
import { Badge, ErrorBox, Progress, Table, useAction } from './common.js';
import { fmtWhen, shortId, usePolling } from './controls.js';

export type MatchListener = components['schemas']['MatchListener'];
type LogLine = components['schemas']['ListenerLogLine'];

export const listenerActive = (l: Pick<MatchListener, 'status'>) => l.status === 'queued' || l.status === 'running';

const TONES: Record<MatchListener['status'], 'neutral' | 'good' | 'warn' | 'bad' | 'live'> = {
  queued: 'neutral',
  running: 'live',
  completed: 'good',
  stopped: 'warn',
  failed: 'bad',
};

export function ListenerStatus({ listener }: { listener: MatchListener }) {
  return <Badge tone={TONES[listener.status]}>{listener.status}</Badge>;
}

export const listenerCounts = (l: MatchListener) =>
  `${l.events_consumed} events, ${l.issued_count} issued, ${l.denied_count} denied, ${l.resolved_count} resolved`;

/**
 * Progress of a listener. A replay says how many recorded events it plays
 * (`events_total`, once a worker has started it): its bar fills as they are
 * consumed. A live feed's length is unknown, so an active one shows a moving
 * bar with the events consumed so far; a finished listener a full bar.
 */
export function ListenerProgress({ listener: l }: { listener: MatchListener }) {
  const active = listenerActive(l);
  const total = l.events_total;
  const fraction = !active ? 1 : total ? Math.min(1, l.events_consumed / total) : null;
  const label =
    l.status === 'queued'
      ? 'waiting for a worker'
      : l.status === 'running'
        ? total
          ? `${l.events_consumed} of ${total} events (${Math.round((fraction ?? 0) * 100)}%)`
          : `${l.events_consumed} events consumed`
        : `${l.status}: ${l.events_consumed}${total ? ` of ${total}` : ''} events`;
  return (
    <div class="listener-progress">
      <Progress value={l.status === 'queued' ? null : fraction} label={label} />
      <div class="listener-counts" aria-label="Counts">
        {listenerCounts(l)}
      </div>
    </div>
  );
}

/** Downloads of a listener's log and event recording, with the API's error when one fails. */
export function ListenerDownloads({ listener }: { listener: MatchListener }) {
  const get = useAction((what: 'log' | 'events') =>
    what === 'log'
      ? download(`/api/match-listeners/${listener.id}/log/download`, `listener-${shortId(listener.id)}.log`)
      : download(`/api/match-listeners/${listener.id}/events/download`, `listener-${shortId(listener.id)}-events.json`),
  );
  return (
    <span class="downloads">
      <button type="button" class="secondary" disabled={get.busy} onClick={() => void get.act('log')}>
        Download log
      </button>
      <button type="button" class="secondary" disabled={get.busy} onClick={() => void get.act('events')}>
        Download events
      </button>
      <ErrorBox error={get.error} />
    </span>
  );
}

export function ListenerTable({ listeners, logOf, onLog }: { listeners: MatchListener[]; logOf?: string | null; onLog?: (id: string | null) => void }) {
  return (
    <Table<MatchListener>
      rows={listeners}
      rowKey={(l) => l.id}
      empty="No listener has run for this match."
      columns={[
        {
          label: 'Listener',
          cell: (l) => (
            <span class="listener-id">
              <code title={l.id}>{shortId(l.id)}</code> {l.source}
              {l.source === 'replay' ? ` x${l.speed ?? 1}` : ''}
            </span>
          ),
        },
        {
          label: 'Status',
          cell: (l) => (
            <>
              <ListenerStatus listener={l} />
              {l.error ? <div class="error-inline">{l.error}</div> : null}
            </>
          ),
        },
        { label: 'Progress', class: 'progress-cell', cell: (l) => <ListenerProgress listener={l} /> },
        {
          label: 'Worker',
          cell: (l) => (
            <span class="text-small">
              {l.claimed_by ?? '-'}
              {l.heartbeat_at ? <div class="muted">beat {fmtWhen(l.heartbeat_at)}</div> : null}
            </span>
          ),
        },
        {
          label: 'Started / finished',
          cell: (l) => (
            <span class="text-small">
              {fmtWhen(l.started_at ?? l.created_at)}
              <div class="muted">{l.finished_at ? fmtWhen(l.finished_at) : listenerActive(l) ? 'in progress' : '-'}</div>
            </span>
          ),
        },
        {
          label: '',
          cell: (l) => (
            <span class="listener-actions">
              {onLog ? (
                <button
                  type="button"
                  class={logOf === l.id ? '' : 'secondary'}
                  aria-pressed={logOf === l.id}
                  onClick={() => onLog(logOf === l.id ? null : l.id)}
                >
                  {logOf === l.id ? 'Hide log' : 'Log'}
                </button>
              ) : null}
              <ListenerDownloads listener={l} />
            </span>
          ),
        },
      ]}
    />
  );
}

const MAX_LINES = 5000;
const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * A listener's log, polled with `after` while the listener is active, and
 * kept scrolled to the newest line while "Follow" is on (scrolling up turns
 * it off; scrolling back to the bottom turns it on again).
 */
export function LogViewer(props: { listener: MatchListener; onClose?: () => void }) {
  // One log per listener: another listener starts afresh, and a read still under way for the previous one lands nowhere.
  return <ListenerLog key={props.listener.id} {...props} />;
}

function ListenerLog({ listener, onClose }: { listener: MatchListener; onClose?: () => void }) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [follow, setFollow] = useState(true);
  const [minLevel, setMinLevel] = useState<(typeof LEVELS)[number]>('debug');
  const [loaded, setLoaded] = useState(false);
  const after = useRef(0);
  const busy = useRef(false);
  /** A read was asked for while one was under way (the last one after the listener ended, say): run it next. */
  const again = useRef(false);
  const box = useRef<HTMLPreElement>(null);
  const id = listener.id;
  const active = listenerActive(listener);

  const fetchMore = async (): Promise<void> => {
    if (busy.current) {
      again.current = true;
      return;
    }
    busy.current = true;
    try {
      for (let page = 0; page < 20; page++) {
        const from = after.current;
        const log = await unwrap(() =>
          api.GET('/api/match-listeners/{listener_id}/log', { params: { path: { listener_id: id }, query: { after: from, limit: 1000 } } }),
        );
        after.current = log.last_line_no;
        if (log.lines.length) setLines((prev) => [...prev, ...log.lines].slice(-MAX_LINES));
        if (log.lines.length < 1000) break;
      }
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      busy.current = false;
      setLoaded(true);
    }
    if (again.current) {
      again.current = false;
      await fetchMore();
    }
  };

  // The first read; one more when the listener finishes, for its last lines.
  useEffect(() => {
    void fetchMore();
  }, []);
  useEffect(() => {
    if (!active) void fetchMore();
  }, [active]);
  usePolling(() => void fetchMore(), 1500, active);

  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines, follow, minLevel]);

  const shown = lines.filter((l) => LEVELS.indexOf(l.level) >= LEVELS.indexOf(minLevel));
  return (
    <div class="card log-viewer" role="region" aria-label={`Log of listener ${shortId(id)}`}>
      <header class="section-head">
        <h3>
          Log of listener <code>{shortId(id)}</code> <ListenerStatus listener={listener} />
        </h3>
        <div class="section-tools">
          <label class="check">
            Level
            <select
              value={minLevel}
              aria-label="Lowest level shown"
              onChange={(e) => setMinLevel((e.target as HTMLSelectElement).value as (typeof LEVELS)[number])}
            >
              {LEVELS.map((l) => (
                <option value={l}>{l === 'debug' ? 'all' : `${l} and above`}</option>
              ))}
            </select>
          </label>
          <label class="check">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow((e.target as HTMLInputElement).checked)} /> Follow
          </label>
          <ListenerDownloads listener={listener} />
          {onClose ? (
            <button type="button" class="secondary" onClick={onClose}>
              Close
            </button>
          ) : null}
        </div>
      </header>
      <ErrorBox error={error} />
      <p class="muted text-small" aria-live="polite">
        {!loaded
          ? 'Loading the log...'
          : `${lines.length} line${lines.length === 1 ? '' : 's'}${lines.length >= MAX_LINES ? ` (the last ${MAX_LINES}; download for all)` : ''}${active ? ', following the listener' : ''}`}
      </p>
      <pre
        class="log"
        ref={box}
        tabIndex={0}
        aria-label="Log lines"
        onScroll={(e) => {
          const el = e.currentTarget as HTMLPreElement;
          const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 12;
          if (atBottom !== follow) setFollow(atBottom);
        }}
      >
        {shown.length
          ? shown.map((l) => (
              <div class={`log-line log-${l.level}`} key={l.line_no}>
                <span class="log-no">{l.line_no}</span> <span class="log-at">{l.at.slice(11, 23)}</span> <span class="log-level">{l.level.toUpperCase()}</span>{' '}
                {l.message}
              </div>
            ))
          : loaded
            ? 'No log lines yet.'
            : ''}
      </pre>
    </div>
  );
}
