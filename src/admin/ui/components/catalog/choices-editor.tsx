/** The choices editor of a definition: identifiers and label templates. */
import type { components } from '../../../../../generated/api-types.js';

export type ChoiceTemplate = components['schemas']['ChoiceTemplate'];

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
          <input
            class="mono ident"
            aria-label={`Choice ${i + 1} identifier`}
            placeholder="identifier"
            value={c.identifier}
            onInput={(e) => set(i, { identifier: (e.target as HTMLInputElement).value })}
          />
          <input
            class="mono"
            aria-label={`Choice ${i + 1} label template`}
            placeholder="label template, e.g. {{ match.home_team }}"
            value={c.label_template}
            onInput={(e) => set(i, { label_template: (e.target as HTMLInputElement).value })}
          />
          <button
            type="button"
            class="secondary small"
            aria-label={`Remove choice ${i + 1}`}
            disabled={choices.length <= 2}
            onClick={() => onValue(choices.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          class="secondary small"
          disabled={choices.length >= 10}
          onClick={() => onValue([...choices, { identifier: '', label_template: '' }])}
        >
          Add choice
        </button>
        <small class="hint"> 2 to 10 choices; identifiers are lowercase letters, digits, - and _.</small>
      </div>
    </fieldset>
  );
}
