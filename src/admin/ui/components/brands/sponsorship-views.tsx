/** What a brand's sponsorship panel shows: its current slots, the day's matches to pick from, and the result of an assignment. */
import type { components } from '../../../../../generated/api-types.js';
import { Link } from '../../router.js';
import { Badge, Notice, Table, fmtTime } from '../common.js';
import { EDITABLE, MatchName, targetText, type Match, type Slot } from './sponsorship-shared.js';

type AssignmentResult = components['schemas']['QuestionSponsorshipAssignmentResult'];

/** The brand's slots, each match named from `knownMatches` (the day lists seen so far). */
export function CurrentSlots({ slots, knownMatches }: { slots: Slot[]; knownMatches: Map<string, Match> }) {
  return (
    <div class="current-slots" role="group" aria-label="Current slots">
      <Table<Slot>
        rows={slots}
        rowKey={(s) => s.id}
        empty="This brand has no question sponsorship slots."
        columns={[
          {
            label: 'Match',
            cell: (s) => {
              const m = knownMatches.get(s.match_id);
              return <Link href={`/admin/matches/${s.match_id}`}>{m ? <MatchName match={m} /> : `match ${s.match_id.slice(0, 8)}`}</Link>;
            },
          },
          { label: 'Kick-off', cell: (s) => fmtTime(knownMatches.get(s.match_id)?.scheduled) },
          { label: 'Strategy', cell: (s) => s.strategy },
          { label: 'Target', cell: (s) => <span title={s.target === null ? '' : String(s.target)}>{targetText(s) || '-'}</span> },
          { label: 'Best effort', cell: (s) => (s.strategy === 'period' ? (s.best_effort ? 'yes' : 'no') : '-') },
          { label: 'Stamped', cell: (s) => (s.question_issuance_id ? <Badge tone="good">{fmtTime(s.stamped_at)}</Badge> : <Badge>pending</Badge>) },
        ]}
      />
    </div>
  );
}

/** The day's matches as checkboxes; only those that take sponsorship changes can be picked (a picked one can always be unpicked). */
export function MatchPicks({ matches, selected, toggle }: { matches: Match[]; selected: string[]; toggle: (id: string, on: boolean) => void }) {
  return (
    <ul class="match-picks" aria-label="Matches">
      {matches.map((m) => {
        const ok = EDITABLE.has(m.status);
        return (
          <li class={ok ? '' : 'disabled'}>
            <label class="check">
              <input
                type="checkbox"
                disabled={!ok && !selected.includes(m.id)}
                checked={selected.includes(m.id)}
                onChange={(e) => toggle(m.id, (e.target as HTMLInputElement).checked)}
              />
              <span>
                <MatchName match={m} />{' '}
                <small>
                  ({m.league}, {fmtTime(m.scheduled)})
                </small>
              </span>
            </label>
            <span class="badges">
              <Badge tone={ok ? 'neutral' : 'warn'}>{m.status}</Badge>
              <small class="hint">
                {m.sponsored_question_count}/{m.question_max_count} sponsored
              </small>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** What an assignment did to each match: slots removed and created, and the brand's slots there now. */
export function AssignmentResultView({ result, knownMatches }: { result: AssignmentResult; knownMatches: Map<string, Match> }) {
  return (
    <div class="assign-result" aria-label="Assignment result">
      <Notice>Assigned: {result.matches.length} match(es) updated.</Notice>
      <Table
        rows={result.matches}
        rowKey={(r) => r.match_id}
        columns={[
          { label: 'Match', cell: (r) => (knownMatches.get(r.match_id) ? <MatchName match={knownMatches.get(r.match_id)!} /> : r.match_id.slice(0, 8)) },
          { label: 'Removed', cell: (r) => r.removed_count, class: 'num' },
          { label: 'Created', cell: (r) => r.created_count, class: 'num' },
          {
            label: "Brand's slots now",
            cell: (r) =>
              r.slots.length ? (
                <span class="badges">
                  {r.slots.map((s) => (
                    <Badge>{`${s.strategy}${targetText(s) ? ` ${targetText(s)}` : ''}`}</Badge>
                  ))}
                </span>
              ) : (
                'none'
              ),
          },
        ]}
      />
    </div>
  );
}
