/** The push settings form: every gate and template beside its code default; save sends only what changed, reset restores the defaults. */
import { useState } from 'preact/hooks';
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';
import { Checkbox, ErrorBox, Field, Notice, NumberInput, useAction } from '../common.js';
import { ConfirmButton } from '../controls.js';
import { TemplateField, WithDefault, deepDiff } from './setting-fields.js';

type Values = components['schemas']['PushSettingsValues'];
type Patch = components['schemas']['PushSettingsPatch'];

/** The settings form; a save or reset restarts it from the settings the API answers with (the page reloads its own copy). */
export function SettingsEditor({ stored, defaults, onSaved }: { stored: Values; defaults: Values; onSaved: () => void }) {
  const [form, setForm] = useState<Values>(() => structuredClone(stored));
  const [saved, setSaved] = useState<string | null>(null);
  const diff = deepDiff(stored, form) as Patch | undefined;
  const save = useAction(async () => {
    setSaved(null);
    if (!diff) {
      setSaved('Nothing changed.');
      return;
    }
    const updated = await unwrap(() => api.PATCH('/api/push-settings', { body: diff }));
    setForm(structuredClone(updated.stored_settings));
    setSaved('Saved.');
    onSaved();
  });
  const reset = useAction(async () => {
    setSaved(null);
    save.setError(null);
    const updated = await unwrap(() => api.POST('/api/push-settings/reset'));
    setForm(structuredClone(updated.stored_settings));
    setSaved('Restored the defaults.');
    onSaved();
  });
  const iss = form.issuance;
  const res = form.resolution;
  const setIss = (v: Partial<Values['issuance']>) => setForm((f) => ({ ...f, issuance: { ...f.issuance, ...v } }));
  const setRes = (v: Partial<Values['resolution']>) => setForm((f) => ({ ...f, resolution: { ...f.resolution, ...v } }));
  return (
    <form
      class="push-settings"
      aria-label="Push settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save.act();
      }}
    >
      <fieldset class="card form-grid">
        <legend>All notifications</legend>
        <WithDefault value={form.enabled} fallback={defaults.enabled}>
          <Checkbox label="Send push notifications" checked={form.enabled} onValue={(v) => setForm((f) => ({ ...f, enabled: v }))} />
        </WithDefault>
        <WithDefault value={form.max_per_user_per_match} fallback={defaults.max_per_user_per_match}>
          <Field label="Per user per match (at most)">
            <NumberInput value={form.max_per_user_per_match} onValue={(v) => setForm((f) => ({ ...f, max_per_user_per_match: v ?? 0 }))} min={0} max={1000} />
          </Field>
        </WithDefault>
      </fieldset>
      <fieldset class="card form-grid">
        <legend>New questions (issuance)</legend>
        <WithDefault value={iss.enabled} fallback={defaults.issuance.enabled}>
          <Checkbox label="Notify on new questions" checked={iss.enabled} onValue={(v) => setIss({ enabled: v })} />
        </WithDefault>
        <WithDefault value={iss.pivotal_only} fallback={defaults.issuance.pivotal_only}>
          <Checkbox label="Pivotal moments only" checked={iss.pivotal_only} onValue={(v) => setIss({ pivotal_only: v })} />
        </WithDefault>
        <WithDefault value={iss.min_seconds_remaining} fallback={defaults.issuance.min_seconds_remaining}>
          <Field label="Minimum seconds left to answer">
            <NumberInput value={iss.min_seconds_remaining} onValue={(v) => setIss({ min_seconds_remaining: v ?? 0 })} min={0} max={86400} />
          </Field>
        </WithDefault>
        <TemplateField
          label="Issuance title template"
          rows={2}
          value={iss.templates.title_template}
          fallback={defaults.issuance.templates.title_template}
          onValue={(v) => setIss({ templates: { ...iss.templates, title_template: v } })}
        />
        <TemplateField
          label="Issuance body template"
          rows={3}
          value={iss.templates.body_template}
          fallback={defaults.issuance.templates.body_template}
          onValue={(v) => setIss({ templates: { ...iss.templates, body_template: v } })}
        />
      </fieldset>
      <fieldset class="card form-grid">
        <legend>Results (resolution)</legend>
        <WithDefault value={res.enabled} fallback={defaults.resolution.enabled}>
          <Checkbox label="Notify on results" checked={res.enabled} onValue={(v) => setRes({ enabled: v })} />
        </WithDefault>
        <WithDefault value={res.only_answered} fallback={defaults.resolution.only_answered}>
          <Checkbox label="Only users who answered" checked={res.only_answered} onValue={(v) => setRes({ only_answered: v })} />
        </WithDefault>
        <TemplateField
          label="Resolution title template"
          rows={2}
          value={res.templates.title_template}
          fallback={defaults.resolution.templates.title_template}
          onValue={(v) => setRes({ templates: { ...res.templates, title_template: v } })}
        />
        <TemplateField
          label="Resolution body template"
          rows={4}
          value={res.templates.body_template}
          fallback={defaults.resolution.templates.body_template}
          onValue={(v) => setRes({ templates: { ...res.templates, body_template: v } })}
        />
      </fieldset>
      <p class="muted text-small">
        Templates are Liquid over <code>question</code>, <code>match</code> and <code>user</code>; result templates add <code>result</code>. They are checked
        when saved.
      </p>
      <div class="form-actions">
        <button type="submit" disabled={save.busy || reset.busy}>
          {save.busy ? 'Saving...' : 'Save settings'}
        </button>
        <button type="button" class="secondary" disabled={!diff} onClick={() => setForm(structuredClone(stored))}>
          Undo changes
        </button>
        <ConfirmButton
          label="Reset to defaults"
          question="Replace every stored setting and template with the code defaults?"
          confirmLabel="Reset"
          busy={reset.busy || save.busy}
          onConfirm={() => void reset.act()}
        />
        {saved ? <Notice>{saved}</Notice> : null}
      </div>
      <ErrorBox error={save.error ?? reset.error} />
    </form>
  );
}
