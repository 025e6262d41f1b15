/** The users list: its filters (kept in the address) and its table with each user's actions. */
import { useState } from 'preact/hooks';
import { setQuery } from '../../router.js';
import { Badge, Field, Table, TextInput } from '../common.js';
import { ConfirmButton, TriSelect, fmtWhen } from '../controls.js';
import type { User } from './user-forms.js';

export type SortBy = 'created_at' | 'username' | 'email' | 'last_login_at';

export const SORTS: { value: SortBy; label: string }[] = [
  { value: 'created_at', label: 'Created' },
  { value: 'username', label: 'Username' },
  { value: 'email', label: 'Email' },
  { value: 'last_login_at', label: 'Last login' },
];

const fullName = (u: Pick<User, 'first_name' | 'last_name'>) => [u.first_name, u.last_name].filter(Boolean).join(' ') || '-';
/** A tri-state filter of the address ('true', 'false', or anything else for either). */
export const bool = (v: string | null) => (v === 'true' ? true : v === 'false' ? false : undefined);

/** What the list is filtered and sorted by (the address's values). */
export interface UserListFilters {
  q: string;
  isAdmin: string;
  isActive: string;
  followed: string;
  sortBy: SortBy;
  sortDir: 'asc' | 'desc';
}

/** The search form: text and the followed match apply on submit, the selects at once; any change goes back to the first page. */
export function UserFilters({ q, isAdmin, isActive, followed, sortBy, sortDir }: UserListFilters) {
  const [search, setSearch] = useState(q);
  const [followedText, setFollowedText] = useState(followed);
  const filter = (values: Record<string, string | undefined>) => setQuery({ ...values, offset: undefined });
  return (
    <form
      class="filters"
      role="search"
      aria-label="Find users"
      onSubmit={(e) => {
        e.preventDefault();
        filter({ q: search.trim() || undefined, followed_match_id: followedText.trim() || undefined });
      }}
    >
      <Field label="Search">
        <TextInput type="search" value={search} onValue={setSearch} placeholder="username, display name, email, name or id" />
      </Field>
      <Field label="Role">
        <TriSelect label="Role" value={isAdmin} onValue={(v) => filter({ is_admin: v })} any="Everyone" yes="Admins" no="Players" />
      </Field>
      <Field label="Account">
        <TriSelect label="Account" value={isActive} onValue={(v) => filter({ is_active: v })} any="Active and deactivated" yes="Active" no="Deactivated" />
      </Field>
      <Field label="Following match (id)">
        <TextInput value={followedText} onValue={setFollowedText} placeholder="match uuid" size={20} />
      </Field>
      <Field label="Sort by">
        <span class="inline-fields">
          <select value={sortBy} aria-label="Sort by" onChange={(e) => filter({ sort_by: (e.target as HTMLSelectElement).value })}>
            {SORTS.map((s) => (
              <option value={s.value}>{s.label}</option>
            ))}
          </select>
          <select value={sortDir} aria-label="Sort direction" onChange={(e) => filter({ sort_dir: (e.target as HTMLSelectElement).value })}>
            <option value="desc">descending</option>
            <option value="asc">ascending</option>
          </select>
        </span>
      </Field>
      <button type="submit">Search</button>
    </form>
  );
}

/** The users found, each with Edit and Deactivate (or Reactivate). */
export function UsersTable({
  users,
  deactivate,
  reactivate,
}: {
  users: User[];
  deactivate: { busy: boolean; act: (u: User) => Promise<unknown> };
  reactivate: { busy: boolean; act: (u: User) => Promise<unknown> };
}) {
  return (
    <Table<User>
      rows={users}
      rowKey={(u) => u.id}
      empty="No user matches these filters."
      columns={[
        {
          label: 'User',
          cell: (u) => (
            <span class="user-cell">
              <button type="button" class="link" onClick={() => setQuery({ user: u.id })} aria-label={`Open ${u.username ?? u.email}`}>
                {u.username ?? <em>no username</em>}
              </button>
              <span class="muted text-small">{u.email}</span>
            </span>
          ),
        },
        {
          label: 'Display name',
          cell: (u) => (u.display_name ? <span title="What leaderboards show">{u.display_name}</span> : <span class="muted">-</span>),
        },
        { label: 'Name', cell: (u) => fullName(u) },
        {
          label: 'Account',
          cell: (u) => (
            <span class="badges">
              {u.is_admin ? <Badge tone="live">admin</Badge> : null}
              {u.deleted_at ? (
                <Badge tone="bad">deleted by the player</Badge>
              ) : u.is_active ? (
                <Badge tone="good">active</Badge>
              ) : (
                <Badge tone="bad">deactivated</Badge>
              )}
              {!u.email_verified && !u.deleted_at ? <Badge tone="warn">email unverified</Badge> : null}
              {u.hidden_from_leaderboards ? <Badge tone="warn">hidden from leaderboards</Badge> : null}
            </span>
          ),
        },
        { label: 'Follows/day', class: 'num', cell: (u) => (u.match_daily_follow_count === null ? 'unrestricted' : u.match_daily_follow_count) },
        { label: 'Last login', cell: (u) => <span class="text-small nowrap">{fmtWhen(u.last_login_at)}</span> },
        { label: 'Created', class: 'hide-narrow', cell: (u) => <span class="text-small nowrap">{fmtWhen(u.created_at)}</span> },
        {
          label: '',
          cell: (u) => (
            <span class="row-actions">
              <button type="button" class="secondary" onClick={() => setQuery({ user: u.id })}>
                Edit
              </button>
              {u.is_active ? (
                <ConfirmButton
                  label="Deactivate"
                  question={`Deactivate ${u.username ?? u.email}?`}
                  confirmLabel="Deactivate"
                  busy={deactivate.busy}
                  onConfirm={() => void deactivate.act(u)}
                />
              ) : u.deleted_at ? null : (
                <button type="button" class="secondary" disabled={reactivate.busy} onClick={() => void reactivate.act(u)}>
                  Reactivate
                </button>
              )}
            </span>
          ),
        },
      ]}
    />
  );
}
