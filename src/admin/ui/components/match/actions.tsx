/** The match page's listener actions: clone (now or paused), start or restart (with a replay speed), stop and delete. */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api.js';
import { ErrorBox, Notice, NumberInput, useAction } from '../common.js';
import { ConfirmButton, shortId } from '../controls.js';
import { navigate } from '../../router.js';
import type { Match } from './shared.js';

export interface MatchActionsProps {
  match: Match;
  /** A listener of the match is queued or running. */
  active: boolean;
  onChanged: () => void;
}

export function MatchActions({ match, active, onChanged }: MatchActionsProps) {
  const [speed, setSpeed] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const cloneAs = (start: 'now' | 'paused') =>
    useAction(async () => {
      const copy = await unwrap(() => api.POST('/api/matches/{match_id}/clone', { params: { path: { match_id: match.id } }, body: { start } }));
      navigate(`/admin/matches/${copy.id}`);
    });
  const clone = cloneAs('now');
  const clonePaused = cloneAs('paused');
  const startAs = (restart: boolean) =>
    useAction(async () => {
      setNotice(null);
      const listener = await unwrap(() =>
        api.POST('/api/matches/{match_id}/start-listener', {
          params: { path: { match_id: match.id } },
          body: { ...(speed !== null ? { speed } : {}), ...(restart ? { restart } : {}) },
        }),
      );
      const which = `listener ${shortId(listener.id)} (replay at speed ${listener.speed ?? 1})`;
      // The notice says what the request did; the Listeners table follows the listener from there.
      const did = restart
        ? `Restarted from the beginning: queued ${which}`
        : listener.status === 'queued'
          ? `Queued ${which}`
          : `The ${which} was already ${listener.status}`;
      setNotice(`${did}; the Listeners table below follows its progress.`);
      onChanged();
    });
  const start = startAs(false);
  const restart = startAs(true);
  const stop = useAction(async () => {
    setNotice(null);
    const result = await unwrap(() => api.POST('/api/matches/{match_id}/stop-listener', { params: { path: { match_id: match.id } } }));
    const n = result.stopped_listener_ids.length;
    setNotice(
      `Stopped ${n} listener${n === 1 ? '' : 's'}${n ? ` (${result.stopped_listener_ids.map(shortId).join(', ')})` : ''}; revoked ${result.revoked_issuance_count} open question${result.revoked_issuance_count === 1 ? '' : 's'}.`,
    );
    onChanged();
  });
  const remove = useAction(async () => {
    await unwrap(() => api.DELETE('/api/matches/{match_id}', { params: { path: { match_id: match.id } } }));
    navigate('/admin/matches');
  });
  const busy = clone.busy || clonePaused.busy || start.busy || restart.busy || stop.busy || remove.busy;
  return (
    <div class="card match-actions" role="group" aria-label="Listener actions">
      <div class="form-actions">
        {match.status === 'closed' ? (
          <>
            <button type="button" disabled={busy} onClick={() => void clone.act()}>
              {clone.busy ? 'Cloning...' : 'Clone as test match'}
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => void clonePaused.act()}
              title="Clone without starting the replay: change its settings first, then start it"
            >
              {clonePaused.busy ? 'Cloning...' : 'Clone paused'}
            </button>
          </>
        ) : null}
        {match.is_test ? (
          <>
            <label class="check speed">
              Speed
              <NumberInput value={speed} onValue={setSpeed} min={0.1} max={1000} step="0.1" placeholder="10" aria-label="Replay speed" />
            </label>
            <button
              type="button"
              disabled={busy || active}
              title={active ? 'A listener is already queued or running: restart the replay, or stop it first' : undefined}
              onClick={() => void start.act()}
            >
              {start.busy ? 'Starting...' : 'Start listener'}
            </button>
            <ConfirmButton
              label="Restart replay"
              question="Replay this test match from the beginning? Its questions, answers, denials and listeners go."
              confirmLabel="Restart"
              busy={busy}
              onConfirm={() => void restart.act()}
            />
          </>
        ) : null}
        {active ? (
          <ConfirmButton
            label="Stop listener"
            question={
              match.is_test
                ? "Stop this test match's listeners and revoke its open questions? In play, it ends (no result); Start listener replays it."
                : "Stop this match's listeners and revoke its open questions?"
            }
            confirmLabel="Stop and revoke"
            busy={busy}
            onConfirm={() => void stop.act()}
          />
        ) : null}
        {match.is_test ? (
          <ConfirmButton
            label="Delete test match"
            question="Delete this test match with its listeners, questions and answers?"
            confirmLabel="Delete"
            busy={busy}
            onConfirm={() => void remove.act()}
          />
        ) : null}
        {active ? <span class="muted">a listener is queued or running; this page refreshes every few seconds</span> : null}
      </div>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBox error={clone.error ?? clonePaused.error ?? start.error ?? restart.error ?? stop.error ?? remove.error} />
    </div>
  );
}
