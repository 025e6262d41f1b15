/**
 * Users: search, filters, sorting and paging (the API's `user_count`),
 * create, edit (admin flag, follow quota, active), deactivate, and a user's
 * points and answer history. Filters and the selected user live in the
 * address, so a view can be shared.
 */
import { useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import {
  Badge,
  Checkbox,
  EditorActions,
  ErrorBox,
  Field,
  Loading,
  Notice,
  NumberInput,
  Page,
  Table,
  TextInput,
  fmtTime,
  useAction,
  useAsync,
} from '../components/common.js';
import { ConfirmButton, Pager, Section, TriSelect, fmtWhen, queryPaging, shortId, usePatchForm } from '../components/controls.js';
import { useLeagues } from '../components/leagues.js';
import { Link, setQuery, useLocation } from '../router.js';

type User = components['schemas']['User'];
type UserPatch = components['schemas']['UserAdminPatch'];
type UserCreate = components['schemas']['UserCreate'];
type SortBy = 'created_at' | 'username' | 'email' | 'last_login_at';
type Answer = components['schemas']['AnswerHistoryItem'];

const SORTS: { value: SortBy; label: string }[] = [
  { value: 'created_at', label: 'Created' },
  { value: 'username', label: 'Username' },
  { value: 'email', label: 'Email' },
  { value: 'last_login_at', label: 'Last login' },
];

const fullName = (u: Pick<User, 'first_name' | 'last_name'>) => [u.first_name, u.last_name].filter(Boolean).join(' ') || '-';
const bool = (v: string | null) => (v === 'true' ? true : v === 'false' ? false : undefined);

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

function CreateUser({ onCreated, onCancel }: { onCreated: (u: User) => void; onCancel: () => void }) {
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

function EditUser({ user, onSaved }: { user: User; onSaved: (u: User) => void }) {
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

const OUTCOME_TONE = { correct: 'good', incorrect: 'bad', void: 'warn', pending: 'neutral' } as const;

type Position = components['schemas']['LeaderboardPosition'];

/** Where the user stands on the leaderboards: the whole game, their leagues, their latest matches. */
function LeaderboardPositions({ user }: { user: User }) {
  const positions = useAsync(
    () => unwrap(() => api.GET('/api/users/{user_id}/leaderboard-positions', { params: { path: { user_id: user.id } } })),
    [user.id, user.updated_at],
  );
  const leagues = useLeagues();
  const p = positions.data;
  const slug = (x: Position) => leagues.find((l) => l.id === x.league_id)?.slug;
  const periodQuery = (x: Position) => `&period=${x.period}${x.period_start ? `&date=${x.period_start}` : ''}`;
  const board = (x: Position) =>
    x.scope === 'overall' ? (
      <Link href={`/admin/leaderboards?scope=overall${periodQuery(x)}`}>Whole game</Link>
    ) : x.scope === 'league' ? (
      <Link href={`/admin/leaderboards?scope=league&league=${slug(x) ?? ''}${periodQuery(x)}`}>League {slug(x) ?? shortId(x.league_id)}</Link>
    ) : (
      <Link href={`/admin/matches/${x.match_id}`}>Match {shortId(x.match_id)}</Link>
    );
  return (
    <>
      <h3>Leaderboards {p ? <small>(periods in {p.timezone})</small> : null}</h3>
      <ErrorBox error={positions.error} />
      {p && (p.hidden_from_leaderboards || !p.is_active) ? (
        <Notice>
          {p.hidden_from_leaderboards ? 'Hidden from leaderboards' : 'Deactivated'}: on no leaderboard, in no rank. Their answers and points stay.
        </Notice>
      ) : null}
      <div role="region" aria-label="Leaderboard positions">
        <Table<Position>
          rows={p?.positions ?? []}
          rowKey={(x) => `${x.scope}:${x.league_id ?? ''}:${x.match_id ?? ''}:${x.period}`}
          empty={positions.loading ? 'Loading...' : 'On no leaderboard.'}
          columns={[
            { label: 'Board', cell: board },
            { label: 'Period', cell: (x) => (x.period === 'all_time' ? 'all time' : `${x.period} from ${x.period_start}`) },
            { label: 'Rank', class: 'num', cell: (x) => `${x.entry.rank} of ${x.player_count}` },
            { label: 'Points', class: 'num', cell: (x) => x.entry.points },
            { label: 'Correct', class: 'num', cell: (x) => x.entry.correct_count },
            { label: 'Streak', class: 'num', cell: (x) => `${x.entry.current_streak} (best ${x.entry.best_streak})` },
          ]}
        />
      </div>
    </>
  );
}

function UserActivity({ user }: { user: User }) {
  const points = useAsync(() => unwrap(() => api.GET('/api/users/{user_id}/points', { params: { path: { user_id: user.id } } })), [user.id]);
  const answers = useAsync(
    () => unwrap(() => api.GET('/api/users/{user_id}/question-answers', { params: { path: { user_id: user.id }, query: { limit: 50 } } })),
    [user.id],
  );
  const p = points.data;
  return (
    <div class="user-activity">
      <h3>Points {p ? <small>(periods in {p.timezone})</small> : null}</h3>
      <ErrorBox error={points.error} />
      {p ? (
        <div class="table-wrap">
          <table aria-label="Points">
            <thead>
              <tr>
                <th>Period</th>
                <th class="num">Points</th>
                <th class="num">Answered</th>
                <th class="num">Resolved</th>
                <th class="num">Correct</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>all time</td>
                <td class="num">{p.all_time.points}</td>
                <td class="num">{p.all_time.answered_count}</td>
                <td class="num">{p.all_time.resolved_count}</td>
                <td class="num">{p.all_time.correct_count}</td>
              </tr>
              {p.periods.map((r) => (
                <tr>
                  <td>{r.period.replace('_', ' ')}</td>
                  <td class="num">{r.points}</td>
                  <td class="num">{r.answered_count}</td>
                  <td class="num">{r.resolved_count}</td>
                  <td class="num">{r.correct_count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Loading when={points.loading} />
      )}
      <LeaderboardPositions user={user} />
      <h3>Answers {answers.data ? <small>(latest {answers.data.length})</small> : null}</h3>
      <ErrorBox error={answers.error} />
      <Table<Answer>
        rows={answers.data ?? []}
        rowKey={(a) => a.answer_id}
        empty="No answers yet."
        columns={[
          { label: 'Match', cell: (a) => <Link href={`/admin/matches/${a.match.id}`}>{`${a.match.home_team} - ${a.match.away_team}`}</Link> },
          {
            label: 'Question',
            class: 'wide-cell',
            cell: (a) => (
              <span>
                {a.question_text} <small class="muted">({a.kind === 'in_game' ? 'in-game' : 'Match'})</small>
              </span>
            ),
          },
          { label: 'Answer', cell: (a) => a.choices.find((c) => c.identifier === a.selected_answer_identifier)?.label ?? a.selected_answer_identifier },
          { label: 'Outcome', cell: (a) => <Badge tone={OUTCOME_TONE[a.outcome]}>{a.outcome}</Badge> },
          { label: 'Points', class: 'num', cell: (a) => `${a.points_awarded}/${a.points_possible}` },
          { label: 'Answered', cell: (a) => <span class="text-small nowrap">{fmtWhen(a.answered_at)}</span> },
        ]}
      />
    </div>
  );
}

function UserPanel({ userId, version, onChanged }: { userId: string; version: number; onChanged: () => void }) {
  const user = useAsync(() => unwrap(() => api.GET('/api/users/{user_id}', { params: { path: { user_id: userId } } })), [userId, version]);
  const u = user.data;
  return (
    <Section
      id="user"
      title={
        u ? (
          <>
            {u.username ?? u.email}{' '}
            <small>
              ({u.email}, id {shortId(u.id)}, joined {fmtTime(u.created_at)})
            </small>
          </>
        ) : (
          'User'
        )
      }
      tools={
        <button type="button" class="secondary" onClick={() => setQuery({ user: undefined })}>
          Close
        </button>
      }
    >
      <Loading when={user.loading && !u} />
      <ErrorBox error={user.error} />
      {u && u.id === userId ? (
        <div class="split">
          <EditUser
            key={`${u.id}:${u.updated_at}`}
            user={u}
            onSaved={() => {
              user.reload();
              onChanged();
            }}
          />
          <UserActivity user={u} />
        </div>
      ) : null}
    </Section>
  );
}

export function UsersPage() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const isAdmin = query.get('is_admin') ?? '';
  const isActive = query.get('is_active') ?? '';
  const followed = query.get('followed_match_id') ?? '';
  const sortBy = (SORTS.find((s) => s.value === query.get('sort_by'))?.value ?? 'created_at') as SortBy;
  const sortDir = query.get('sort_dir') === 'asc' ? 'asc' : 'desc';
  const paging = queryPaging(query);
  const { offset, limit } = paging;
  const selected = query.get('user');
  const creating = query.get('new') === '1';
  const [search, setSearch] = useState(q);
  const [followedText, setFollowedText] = useState(followed);
  const [notice, setNotice] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  const list = useAsync(
    () =>
      unwrap(() =>
        api.GET('/api/users', {
          params: {
            query: {
              ...(q ? { q } : {}),
              ...(bool(isAdmin) !== undefined ? { is_admin: bool(isAdmin) } : {}),
              ...(bool(isActive) !== undefined ? { is_active: bool(isActive) } : {}),
              ...(followed ? { followed_match_id: followed } : {}),
              sort_by: sortBy,
              sort_dir: sortDir,
              offset,
              limit,
            },
          },
        }),
      ),
    [q, isAdmin, isActive, followed, sortBy, sortDir, offset, limit],
  );
  const deactivate = useAction(async (u: User) => {
    setNotice(null);
    await unwrap(() => api.DELETE('/api/users/{user_id}', { params: { path: { user_id: u.id } } }));
    setNotice(`Deactivated ${u.username ?? u.email}; their keys are revoked.`);
    setVersion((v) => v + 1);
    list.reload();
  });
  const reactivate = useAction(async (u: User) => {
    setNotice(null);
    await unwrap(() => api.PATCH('/api/users/{user_id}', { params: { path: { user_id: u.id } }, body: { is_active: true } }));
    setNotice(`Reactivated ${u.username ?? u.email}; they sign in again.`);
    setVersion((v) => v + 1);
    list.reload();
  });
  const filter = (values: Record<string, string | undefined>) => setQuery({ ...values, offset: undefined });
  const data = list.data;

  return (
    <Page
      title="Users"
      actions={
        <button type="button" onClick={() => setQuery({ new: creating ? undefined : '1' })}>
          {creating ? 'Close new user' : 'New user'}
        </button>
      }
    >
      {creating ? (
        <CreateUser
          onCancel={() => setQuery({ new: undefined })}
          onCreated={(u) => {
            setNotice(`Created ${u.username ?? u.email}.`);
            setQuery({ new: undefined, user: u.id });
            list.reload();
          }}
        />
      ) : null}
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
          <TextInput type="search" value={search} onValue={setSearch} placeholder="username, email, name or id" />
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
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBox error={list.error ?? deactivate.error ?? reactivate.error} />
      <Loading when={list.loading && !data} />
      <Table<User>
        rows={data?.users ?? []}
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
          { label: 'Name', cell: (u) => fullName(u) },
          {
            label: 'Account',
            cell: (u) => (
              <span class="badges">
                {u.is_admin ? <Badge tone="live">admin</Badge> : null}
                {u.is_active ? <Badge tone="good">active</Badge> : <Badge tone="bad">deactivated</Badge>}
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
                ) : (
                  <button type="button" class="secondary" disabled={reactivate.busy} onClick={() => void reactivate.act(u)}>
                    Reactivate
                  </button>
                )}
              </span>
            ),
          },
        ]}
      />
      {data ? <Pager label="users" total={data.user_count} {...paging} /> : null}
      {selected ? <UserPanel userId={selected} version={version} onChanged={list.reload} /> : null}
    </Page>
  );
}
