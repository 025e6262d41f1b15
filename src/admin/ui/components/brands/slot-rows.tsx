/** The slots to place on the chosen matches: one row each (a strategy and its target), added and removed. */
import type { components } from '../../../../../generated/api-types.js';
import { Checkbox } from '../common.js';

type SlotInput = components['schemas']['QuestionSponsorshipSlotInput'];
type Strategy = components['schemas']['SponsorshipStrategy'];
type DefinitionSummary = components['schemas']['QuestionDefinitionSummary'];

export interface SlotRow {
  strategy: Strategy;
  target: string;
  best_effort: boolean;
}

const STRATEGIES: { value: Strategy; label: string }[] = [
  { value: 'question_number', label: 'Question number' },
  { value: 'period', label: 'Period' },
  { value: 'next_available', label: 'Next available' },
  { value: 'definition', label: 'Definition' },
];

/** A row as the API takes it: a question number as a number when it is one. */
export function slotInput(row: SlotRow): SlotInput {
  if (row.strategy === 'next_available') return { strategy: row.strategy, best_effort: row.best_effort };
  if (row.strategy === 'question_number') {
    const n = Number(row.target);
    return { strategy: row.strategy, target: row.target.trim() !== '' && Number.isInteger(n) ? n : row.target, best_effort: row.best_effort };
  }
  return { strategy: row.strategy, target: row.target, best_effort: row.best_effort };
}

function SlotTarget({
  row,
  index,
  onValue,
  periods,
  definitions,
}: {
  row: SlotRow;
  index: number;
  onValue: (v: string) => void;
  periods: string[] | null;
  definitions: DefinitionSummary[] | null;
}) {
  const label = `Slot ${index + 1} target`;
  if (row.strategy === 'next_available') return <span class="muted">no target</span>;
  if (row.strategy === 'question_number')
    return <input type="number" min={1} aria-label={label} value={row.target} onInput={(e) => onValue((e.target as HTMLInputElement).value)} placeholder="1" />;
  if (row.strategy === 'period' && periods) {
    return (
      <select aria-label={label} value={row.target} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
        <option value="">(choose a period)</option>
        {periods.map((p) => (
          <option value={p}>{p}</option>
        ))}
      </select>
    );
  }
  if (row.strategy === 'definition' && definitions) {
    return (
      <select aria-label={label} value={row.target} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
        <option value="">(choose a definition)</option>
        {definitions.map((d) => (
          <option value={d.id}>{d.name}</option>
        ))}
      </select>
    );
  }
  return (
    <input
      class="mono"
      aria-label={label}
      value={row.target}
      onInput={(e) => onValue((e.target as HTMLInputElement).value)}
      placeholder={row.strategy === 'period' ? 'period key, e.g. 2' : 'definition id'}
    />
  );
}

/** The slot rows with their controls; `periods` and `definitions` (of the target league, when there is one) offer choices for the target. */
export function SlotRows({
  rows,
  setRows,
  periods,
  definitions,
}: {
  rows: SlotRow[];
  setRows: (rows: SlotRow[]) => void;
  periods: string[] | null;
  definitions: DefinitionSummary[] | null;
}) {
  const setRow = (i: number, patch: Partial<SlotRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <>
      {rows.map((r, i) => (
        <div class="row slot-row">
          <select
            aria-label={`Slot ${i + 1} strategy`}
            value={r.strategy}
            onChange={(e) => setRow(i, { strategy: (e.target as HTMLSelectElement).value as Strategy, target: '' })}
          >
            {STRATEGIES.map((s) => (
              <option value={s.value}>{s.label}</option>
            ))}
          </select>
          <SlotTarget row={r} index={i} onValue={(v) => setRow(i, { target: v })} periods={periods} definitions={definitions} />
          {r.strategy === 'period' ? <Checkbox checked={r.best_effort} onValue={(v) => setRow(i, { best_effort: v })} label="Best effort" /> : <span />}
          <button type="button" class="secondary small" aria-label={`Remove slot ${i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <div>
        <button type="button" class="secondary small" onClick={() => setRows([...rows, { strategy: 'next_available', target: '', best_effort: true }])}>
          Add slot
        </button>
        {!rows.length ? <small class="hint"> No slots: with "replace" on, this clears the brand's slots on the chosen matches.</small> : null}
      </div>
    </>
  );
}
