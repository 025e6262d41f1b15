/** The live preview of a question definition, rendered by the API from a sample event. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';
import { ErrorBox, Field, JsonField } from '../common.js';
import type { ChoiceTemplate } from './choices-editor.js';
import type { SampleCatalog } from './loaders.js';

type QuestionPreview = components['schemas']['QuestionPreview'];
type QuestionPreviewRequest = components['schemas']['QuestionPreviewRequest'];

/** The value, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

const isEmptyObject = (v: unknown) => v === null || v === undefined || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/**
 * The live preview: POST /api/question-definitions/preview, debounced, on
 * every change of what it renders; shows the rendered text and choices or the
 * API's 400/404 detail.
 */
export function PreviewPanel({
  league,
  template,
  choices,
  extract,
  catalog,
  eventType,
  matchOverrides,
  eventControls = true,
  note,
}: {
  league: string;
  template: string;
  choices: ChoiceTemplate[];
  extract?: Record<string, string> | null;
  catalog: SampleCatalog | undefined;
  /** The sample event type to start with (the trigger's). */
  eventType: string;
  matchOverrides?: Record<string, unknown>;
  eventControls?: boolean;
  note?: ComponentChildren;
}) {
  const [sampleType, setSampleType] = useState<string>('');
  const [inline, setInline] = useState<unknown>(null);
  const [state, setState] = useState<unknown>(null);
  const type = sampleType || eventType || catalog?.event_types[0]?.type || '';
  const complete = choices.filter((c) => c.identifier.trim() && c.label_template.trim());
  const request: QuestionPreviewRequest | null =
    league && type && template.trim()
      ? {
          league,
          question_text_template: template,
          choices: complete,
          ...(!isEmptyObject(inline) && typeof inline === 'object' && !Array.isArray(inline)
            ? { sample_event: { type, ...(inline as object) } }
            : { sample_event_type: type }),
          ...(!isEmptyObject(state) && typeof state === 'object' && !Array.isArray(state) ? { store_state: state as Record<string, unknown> } : {}),
          ...(extract && Object.keys(extract).length ? { issuance_state_extract: extract } : {}),
          ...(matchOverrides ? { match: matchOverrides } : {}),
        }
      : null;
  const key = useDebounced(request ? JSON.stringify(request) : '', 300);
  const [out, setOut] = useState<{ preview: QuestionPreview | null; error: unknown; busy: boolean }>({ preview: null, error: null, busy: false });
  const seq = useRef(0);
  useEffect(() => {
    if (!key) return;
    const mine = ++seq.current;
    setOut((o) => ({ ...o, busy: true }));
    unwrap(() => api.POST('/api/question-definitions/preview', { body: JSON.parse(key) as QuestionPreviewRequest })).then(
      (preview) => mine === seq.current && setOut({ preview, error: null, busy: false }),
      (error) => mine === seq.current && setOut({ preview: null, error, busy: false }),
    );
  }, [key]);
  const pending = out.busy || (request ? JSON.stringify(request) !== key : false);
  const p = out.preview;
  return (
    <aside class="card preview-panel" aria-label="Live preview">
      <div class="preview-head">
        <h2>Live preview</h2>
        <span class="preview-status" role="status">
          {pending ? 'Rendering...' : out.error ? 'Failed' : p ? 'Up to date' : ''}
        </span>
      </div>
      {note ? <p class="hint">{note}</p> : null}
      {eventControls ? (
        <>
          <Field label="Sample event">
            <select value={sampleType} onChange={(e) => setSampleType((e.target as HTMLSelectElement).value)}>
              <option value="">Trigger's type ({eventType || 'none'})</option>
              {(catalog?.event_types ?? []).map((t) => (
                <option value={t.type}>{t.type}</option>
              ))}
            </select>
          </Field>
          <details class="preview-inputs">
            <summary>Inline sample event and state store</summary>
            <JsonField label="Inline sample event (JSON, optional; missing fields come from the catalog sample)" value={inline} onValue={setInline} rows={4} />
            <JsonField label="State store contents (JSON, optional)" value={state} onValue={setState} rows={3} />
          </details>
        </>
      ) : (
        <details class="preview-inputs">
          <summary>State store</summary>
          <JsonField label="State store contents (JSON, optional)" value={state} onValue={setState} rows={3} />
        </details>
      )}
      {!request ? <p class="empty">Write a question text template to see it rendered.</p> : null}
      <ErrorBox error={request ? out.error : null} />
      {request && p ? (
        <div class={`preview${pending ? ' stale' : ''}`} aria-label="Rendered question">
          <p class="question">{p.question_text}</p>
          <ul>
            {p.choices.map((c) => (
              <li>
                <span class="choice-label">{c.label}</span> <code>{c.identifier}</code>
              </li>
            ))}
          </ul>
          {complete.length < choices.length ? <small class="hint">Choices without an identifier or label are left out.</small> : null}
        </div>
      ) : null}
      {request && p && Object.keys(p.extract).length ? (
        <details>
          <summary>Extract (issuance snapshot)</summary>
          <pre class="json">{JSON.stringify(p.extract, null, 2)}</pre>
        </details>
      ) : null}
      {request && p && eventControls ? (
        <details>
          <summary>Event and match used</summary>
          <pre class="json">{JSON.stringify({ event: p.event, match: p.match, state: p.state }, null, 2)}</pre>
        </details>
      ) : null}
    </aside>
  );
}
