/** The user opened from the list (`?user=<id>`): the editor beside their activity. */
import { api, unwrap } from '../../api.js';
import { setQuery } from '../../router.js';
import { ErrorBox, Loading, fmtTime, useAsync } from '../common.js';
import { Section, shortId } from '../controls.js';
import { UserActivity } from './user-activity.js';
import { EditUser } from './user-forms.js';

export function UserPanel({ userId, version, onChanged }: { userId: string; version: number; onChanged: () => void }) {
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
