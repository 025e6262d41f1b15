/** The per-question override fields of a question group or in-game definition. */
import { Field, NumberInput } from '../common.js';

/** The per-question overrides a group or in-game definition may set; blank inherits. */
export interface QuestionOverrides {
  answer_window_seconds?: number | null;
  min_answer_seconds?: number | null;
  points?: number | null;
  probability?: number | null;
}

/** The fields of `QuestionOverrides` (answer window, minimum answer time, points, probability), each "Blank inherits". */
export function QuestionOverrideFields({
  values,
  onValue,
}: {
  values: QuestionOverrides;
  onValue: (key: keyof QuestionOverrides, value: number | null) => void;
}) {
  return (
    <>
      <Field label="Answer window (s)" hint="Blank inherits">
        <NumberInput value={values.answer_window_seconds} min={1} max={86400} onValue={(v) => onValue('answer_window_seconds', v)} />
      </Field>
      <Field label="Minimum answer time (s)" hint="Decided sooner, the question is voided. Blank inherits">
        <NumberInput value={values.min_answer_seconds} min={0} max={3600} onValue={(v) => onValue('min_answer_seconds', v)} />
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
