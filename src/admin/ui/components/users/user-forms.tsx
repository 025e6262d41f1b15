/** Creating a user, and editing one (every field an admin may change; only the changed ones are sent). */
import { useState } from 'preact/hooks';
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';
import { Checkbox, EditorActions, ErrorBox, Field, NumberInput, TextInput, useAction } from '../common.js';
import { usePatchForm } from '../controls.js';

export type User = components['schemas']['User'];
type UserPatch = components['schemas']['UserAdminPatch'];
type UserCreate = components['schemas']['UserCreate'];

/** The daily follow quota: a number, or unrestricted (null). */
function QuotaField({ value, onValue }: { value: number | null; onValue: (v: number | null) => void }) {
  return (
    <Field label="Daily follow quota">
      <span class="inline-fields">
        <NumberInput value={value} onValue={(v) => onValue(v ?? 0)} min={0} max={1000} disabled={value === null} aria-label="Daily follow quota" />
        <Checkbox label="Unrestricted" checked={value === null} onValue={(v) => onValue(v ? null : 3)} />
      </span>
    </Field>
  );
}

export function CreateUser({ onCreated, onCancel }: { onCreated: (u: User) => void; onCancel: () => void }) {
  const [form, setForm] = useState<UserCreate>({
    username: '',
    email: '',
    password: '',
    first_name: '',
    last_name: '',
    match_daily_follow_count: 3,
    is_admin: false,
    notify_on_issuance: true,
    notify_on_resolve: true,
  });
  const set =
    <K extends keyof UserCreate>(key: K) =>
    (value: UserCreate[K]) =>
      setForm((f) => ({ ...f, [key]: value }));
  const create = useAction(async () => {
    const body: UserCreate = { ...form, first_name: form.first_name || null, last_name: form.last_name || null };
    onCreated(await unwrap(() => api.POST('/api/users', { body })));
  });
  return (
    <form
      class="card form-grid"
      aria-label="New user"
      onSubmit={(e) => {
        e.preventDefault();
        void create.act();
      }}
    >
      <h2>New user</h2>
      <Field label="Username">
        <TextInput value={form.username} onValue={set('username')} required autocomplete="off" />
      </Field>
      <Field label="Email">
        <TextInput type="email" value={form.email} onValue={set('email')} required autocomplete="off" />
      </Field>
      <Field label="Password">
        <TextInput type="password" value={form.password} onValue={set('password')} required autocomplete="new-password" />
      </Field>
      <Field label="First name">
        <TextInput value={form.first_name ?? ''} onValue={set('first_name')} />
      </Field>
      <Field label="Last name">
        <TextInput value={form.last_name ?? ''} onValue={set('last_name')} />
      </Field>
      <QuotaField value={form.match_daily_follow_count ?? null} onValue={set('match_daily_follow_count')} />
      <div class="field">
        <span class="field-label">Role</span>
        <Checkbox label="Admin" checked={!!form.is_admin} onValue={set('is_admin')} />
      </div>
      <div class="form-actions">
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating...' : 'Create user'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorBox error={create.error} />
    </form>
  );
}

type EditForm = Required<Omit<UserPatch, 'password'>> & { password: string };

const editFormOf = (u: User): EditForm => ({
  username: u.username ?? '',
  display_name: u.display_name,
  display_name_locked: u.display_name_locked,
  hidden_from_leaderboards: u.hidden_from_leaderboards,
  email: u.email,
  password: '',
  first_name: u.first_name,
  last_name: u.last_name,
  postal_address: u.postal_address,
  date_of_birth: u.date_of_birth,
  match_follow_timezone: u.match_follow_timezone,
  match_daily_follow_count: u.match_daily_follow_count,
  notify_on_issuance: u.notify_on_issuance,
  notify_on_resolve: u.notify_on_resolve,
  is_admin: u.is_admin,
  is_active: u.is_active,
});

export function EditUser({ user, onSaved }: { user: User; onSaved: (u: User) => void }) {
  // The stored password is always blank: a typed one counts as a change.
  const { form, set, changed, save, saved, undo } = usePatchForm({
    stored: user,
    formOf: editFormOf,
    send: (changes) => unwrap(() => api.PATCH('/api/users/{user_id}', { params: { path: { user_id: user.id } }, body: changes as UserPatch })),
    savedText: (changed) => `Saved ${changed.join(', ')}.`,
    onSaved,
  });
  const nullable = (v: string) => (v.trim() === '' ? null : v);
  return (
    <form
      class="card form-grid"
      aria-label={`Edit ${user.username ?? user.email}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save.act();
      }}
    >
      <Field label="Username">
        <TextInput value={form.username} onValue={set('username')} autocomplete="off" />
      </Field>
      <Field label="Display name" hint={`Leaderboards show: ${user.leaderboard_name}. Setting it locks it.`}>
        <TextInput value={form.display_name ?? ''} onValue={(v) => set('display_name')(nullable(v))} placeholder={user.username ?? ''} />
      </Field>
      <Field label="Email">
        <TextInput type="email" value={form.email} onValue={set('email')} autocomplete="off" />
      </Field>
      <Field label="New password" hint="Leave empty to keep it; a new one signs the user out.">
        <TextInput type="password" value={form.password} onValue={set('password')} autocomplete="new-password" />
      </Field>
      <Field label="First name">
        <TextInput value={form.first_name ?? ''} onValue={(v) => set('first_name')(nullable(v))} />
      </Field>
      <Field label="Last name">
        <TextInput value={form.last_name ?? ''} onValue={(v) => set('last_name')(nullable(v))} />
      </Field>
      <Field label="Date of birth">
        <input type="date" value={form.date_of_birth ?? ''} onInput={(e) => set('date_of_birth')(nullable((e.target as HTMLInputElement).value))} />
      </Field>
      <Field label="Time zone" hint="IANA name; empty means UTC.">
        <TextInput value={form.match_follow_timezone ?? ''} onValue={(v) => set('match_follow_timezone')(nullable(v))} placeholder="UTC" />
      </Field>
      <QuotaField value={form.match_daily_follow_count} onValue={set('match_daily_follow_count')} />
      <Field label="Postal address">
        <TextInput value={form.postal_address ?? ''} onValue={(v) => set('postal_address')(nullable(v))} />
      </Field>
      <div class="field">
        <span class="field-label">Account</span>
        <Checkbox label="Admin" checked={form.is_admin} onValue={set('is_admin')} />
        <Checkbox label="Active" checked={form.is_active} onValue={set('is_active')} />
      </div>
      <div class="field">
        <span class="field-label">Leaderboards</span>
        <Checkbox label="Display name locked" checked={form.display_name_locked} onValue={set('display_name_locked')} />
        <Checkbox label="Hidden from leaderboards" checked={form.hidden_from_leaderboards} onValue={set('hidden_from_leaderboards')} />
      </div>
      <div class="field">
        <span class="field-label">Push notifications</span>
        <Checkbox label="On new questions" checked={form.notify_on_issuance} onValue={set('notify_on_issuance')} />
        <Checkbox label="On results" checked={form.notify_on_resolve} onValue={set('notify_on_resolve')} />
      </div>
      <EditorActions busy={save.busy} saveLabel="Save user" saved={saved} error={save.error}>
        <button type="button" class="secondary" disabled={!changed.length} onClick={undo}>
          Undo changes
        </button>
      </EditorActions>
    </form>
  );
}
