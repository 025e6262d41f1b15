/**
 * Users: search, filters, sorting and paging (the API's `user_count`),
 * create, edit (admin flag, follow quota, active), deactivate, and a user's
 * points and answer history. Filters and the selected user live in the
 * address, so a view can be shared. The parts are components of
 * components/users/.
 */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api.js';
import { ErrorBox, Loading, Notice, Page, useAction, useAsync } from '../components/common.js';
import { Pager, queryPaging } from '../components/controls.js';
import { CreateUser, type User } from '../components/users/user-forms.js';
import { SORTS, UserFilters, UsersTable, bool, type SortBy } from '../components/users/user-list.js';
import { UserPanel } from '../components/users/user-panel.js';
import { setQuery, useLocation } from '../router.js';

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
      <UserFilters q={q} isAdmin={isAdmin} isActive={isActive} followed={followed} sortBy={sortBy} sortDir={sortDir} />
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBox error={list.error ?? deactivate.error ?? reactivate.error} />
      <Loading when={list.loading && !data} />
      <UsersTable users={data?.users ?? []} deactivate={deactivate} reactivate={reactivate} />
      {data ? <Pager label="users" total={data.user_count} {...paging} /> : null}
      {selected ? <UserPanel userId={selected} version={version} onChanged={list.reload} /> : null}
    </Page>
  );
}
