/**
 * Push notifications: the stored settings beside the code defaults (every
 * gate and template editable; a template that does not compile comes back
 * as the API's 400), reset to the defaults, and the delivery attempts of a
 * user (by id or email) or of everyone.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { Badge, Checkbox, ErrorBox, Field, Loading, Notice, NumberInput, Page, Table, TextInput, fmtTime, useAction, useAsync } from '../components/common.js';
import { ConfirmButton, Section, UUID_RE, fmtWhen, shortId } from '../components/controls.js';
import { Link, setQuery, useLocation } from '../router.js';

type Values = components['schemas']['PushSettingsValues'];
type Patch = components['schemas']['PushSettingsPatch'];
type Attempt = components['schemas']['PushDeliveryAttempt'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaves of `next` that differ from `prev`, as a nested partial (undefined when nothing differs). */
function deepDiff(prev: unknown, next: unknown): unknown {
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
function WithDefault({
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

function TemplateField({
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

/** The settings form; a save or reset restarts it from the settings the API answers with (the page reloads its own copy). */
function SettingsEditor({ stored, defaults, onSaved }: { stored: Values; defaults: Values; onSaved: () => void }) {
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

function DeliveryAttempts() {
  const { query } = useLocation();
  const who = query.get('who') ?? '';
  const [text, setText] = useState(who);
  const attempts = useAsync(
    () =>
      unwrap(() =>
        api.GET('/api/push-delivery-attempts', { params: { query: { limit: 100, ...(who ? (UUID_RE.test(who) ? { user_id: who } : { email: who }) : {}) } } }),
      ),
    [who],
  );
  return (
    <Section
      id="attempts"
      title={
        <>
          Delivery attempts <small>({who ? `of ${who}` : 'everyone, newest first'})</small>
        </>
      }
    >
      <form
        class="filters"
        role="search"
        aria-label="Find delivery attempts"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ who: text.trim() || undefined });
        }}
      >
        <Field label="User id or email">
          <TextInput value={text} onValue={setText} placeholder="empty: everyone" size={32} />
        </Field>
        <button type="submit">Look up</button>
        <button type="button" class="secondary" onClick={attempts.reload}>
          Refresh
        </button>
      </form>
      <ErrorBox error={attempts.error} />
      <Loading when={attempts.loading && !attempts.data} />
      <Table<Attempt>
        rows={attempts.error ? [] : (attempts.data ?? [])}
        rowKey={(a) => a.id}
        empty="No delivery attempts."
        columns={[
          { label: 'When', cell: (a) => <span class="text-small nowrap">{fmtWhen(a.created_at)}</span> },
          {
            label: 'User',
            cell: (a) => (
              <Link href={`/admin/users?user=${a.user_id}`} title={a.user_id}>
                {shortId(a.user_id)}
              </Link>
            ),
          },
          {
            label: 'Device',
            cell: (a) => (
              <span class="text-small">
                {a.device_id ?? '-'}
                <div class="muted">
                  {a.platform ?? '-'} via {a.provider}
                </div>
              </span>
            ),
          },
          { label: 'Event', cell: (a) => a.event },
          {
            label: 'Status',
            cell: (a) => (
              <span>
                <Badge tone={a.status === 'delivered' ? 'good' : a.status === 'failed' ? 'bad' : 'warn'}>{a.status}</Badge>
                {a.status_code !== null ? <small class="muted"> {a.status_code}</small> : null}
                {a.error ? <div class="error-inline text-small">{a.error}</div> : null}
              </span>
            ),
          },
          {
            label: 'Message',
            class: 'wide-cell',
            cell: (a) => (
              <span>
                <strong>{a.title}</strong>
                <div>{a.body}</div>
              </span>
            ),
          },
        ]}
      />
    </Section>
  );
}

export function PushPage() {
  const settings = useAsync(() => unwrap(() => api.GET('/api/push-settings')), []);
  const s = settings.data;
  return (
    <Page title="Push notifications">
      <Section
        id="settings"
        title="Settings"
        tools={
          s ? (
            <span class="muted text-small">
              {s.is_default ? <Badge tone="good">the code defaults</Badge> : <Badge tone="warn">changed from the defaults</Badge>}{' '}
              {s.updated_at ? (
                <>
                  last saved {fmtTime(s.updated_at)}
                  {s.updated_by_user_id ? (
                    <>
                      {' '}
                      by <Link href={`/admin/users?user=${s.updated_by_user_id}`}>{shortId(s.updated_by_user_id)}</Link>
                    </>
                  ) : null}
                </>
              ) : (
                'never saved'
              )}
            </span>
          ) : null
        }
      >
        <Loading when={settings.loading && !s} />
        <ErrorBox error={settings.error} />
        {s ? <SettingsEditor stored={s.stored_settings} defaults={s.defaults} onSaved={settings.reload} /> : null}
      </Section>
      <DeliveryAttempts />
    </Page>
  );
}
