/** The pieces of the push settings form: what changed (a nested diff), and a field shown beside its code default. */
import type { ComponentChildren } from 'preact';
import { Badge, Field } from '../common.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaves of `next` that differ from `prev`, as a nested partial (undefined when nothing differs). */
export function deepDiff(prev: unknown, next: unknown): unknown {
  if (isObject(prev) && isObject(next)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(next)) {
      const d = deepDiff(prev[k], next[k]);
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return JSON.stringify(prev) === JSON.stringify(next) ? undefined : next;
}

/** A field with the code default beside it, marked when the value differs from it. */
export function WithDefault({
  value,
  fallback,
  children,
  wide,
  long,
}: {
  value: unknown;
  fallback: unknown;
  children: ComponentChildren;
  wide?: boolean;
  long?: boolean;
}) {
  const differs = JSON.stringify(value) !== JSON.stringify(fallback);
  const shown = typeof fallback === 'boolean' ? (fallback ? 'on' : 'off') : String(fallback);
  return (
    <div class={`field with-default${differs ? ' differs' : ''}${wide ? ' wide' : ''}`}>
      {children}
      <small class="hint">
        {long && !differs ? (
          'the default'
        ) : (
          <>
            default: <code>{shown}</code>
          </>
        )}
        {differs ? <Badge tone="warn">changed</Badge> : null}
      </small>
    </div>
  );
}

/** A Liquid template beside its default (said, not shown, while it is the default). */
export function TemplateField({
  label,
  value,
  fallback,
  onValue,
  rows,
}: {
  label: string;
  value: string;
  fallback: string;
  onValue: (v: string) => void;
  rows: number;
}) {
  return (
    <WithDefault value={value} fallback={fallback} wide long>
      <Field label={label}>
        <textarea class="mono" rows={rows} spellcheck={false} value={value} onInput={(e) => onValue((e.target as HTMLTextAreaElement).value)} />
      </Field>
    </WithDefault>
  );
}
