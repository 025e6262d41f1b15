/** The match page's issuance denials: the attempts a gate blocked, filtered by gate and paged. */
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';
import { Badge, ErrorBox, Table, Token, useAsync } from '../common.js';
import { Pager, Section, fmtClock, fmtWhen } from '../controls.js';
import { setQuery } from '../../router.js';

type Denial = components['schemas']['IssuanceDenial'];

/** Gate ids, in the order the engine runs them (the contract lists them on the denials operation; the browser test holds this copy to the engine's GATES). */
export const GATES = ['listener_running', 'definition_allowed', 'match_cap', 'period_quota', 'min_interval', 'group_lane', 'probability', 'render'] as const;

export interface DenialsProps {
  matchId: string;
  /** The gate filter ('' for any gate), kept in the address. */
  failedStep: string;
  /** Reloads the list when it changes. */
  refreshKey: number;
}

export function Denials({ matchId, failedStep, refreshKey }: DenialsProps) {
  const [limit, setLimit] = useState(50);
  const [offset, setOffset] = useState(0);
  useEffect(() => setOffset(0), [matchId, failedStep]);
  const denials = useAsync(
    () =>
      unwrap(() =>
        api.GET('/api/matches/{match_id}/question-issuance-denials', {
          params: { path: { match_id: matchId }, query: { limit, offset, ...(failedStep ? { failed_step: failedStep } : {}) } },
        }),
      ),
    [matchId, failedStep, limit, offset, refreshKey],
  );
  const rows = denials.data?.denials ?? [];
  const total = denials.data?.denial_count ?? 0;
  return (
    <Section
      id="denials"
      title={
        <>
          Issuance denials <small>({total})</small>
        </>
      }
      tools={
        <label class="check">
          Failed step
          <select value={failedStep} aria-label="Failed step" onChange={(e) => setQuery({ failed_step: (e.target as HTMLSelectElement).value })}>
            <option value="">Any gate</option>
            {GATES.map((g) => (
              <option value={g}>{g}</option>
            ))}
          </select>
        </label>
      }
    >
      <ErrorBox error={denials.error} />
      <div class="scroll-box">
        <Table<Denial>
          rows={rows}
          rowKey={(d) => d.id}
          empty={failedStep ? `No attempt was blocked at ${failedStep}.` : 'No attempt was blocked on this match.'}
          columns={[
            { label: 'When', cell: (d) => <span class="text-small nowrap">{fmtWhen(d.created_at)}</span> },
            { label: 'Definition', cell: (d) => d.definition_name },
            {
              label: 'Failed step',
              cell: (d) => (
                <Badge tone="warn">
                  <Token>{d.failed_step}</Token>
                </Badge>
              ),
            },
            { label: 'Detail', class: 'wide-cell', cell: (d) => d.detail },
            {
              label: 'Trigger',
              cell: (d) => (
                <span class="text-small">
                  <Token>{d.trigger_event_type}</Token>
                  {d.period !== null ? ` · P${d.period} ${fmtClock(d.clock_seconds)}` : ''}
                  <div class="muted">
                    <Token>{d.trigger_event_id}</Token>
                  </div>
                </span>
              ),
            },
          ]}
        />
      </div>
      {denials.data ? (
        <Pager
          label="denials"
          offset={offset}
          limit={limit}
          total={total}
          onOffset={setOffset}
          onLimit={(l) => {
            setLimit(l);
            setOffset(0);
          }}
        />
      ) : null}
    </Section>
  );
}
