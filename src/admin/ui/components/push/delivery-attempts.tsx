/** The push delivery attempts of a user (by id or email, kept in the address) or of everyone, newest first. */
import { useState } from 'preact/hooks';
import type { components } from '../../../../../generated/api-types.js';
import { api, unwrap } from '../../api.js';
import { Link, setQuery, useLocation } from '../../router.js';
import { Badge, ErrorBox, Field, Loading, Table, TextInput, useAsync } from '../common.js';
import { Section, UUID_RE, fmtWhen, shortId } from '../controls.js';

type Attempt = components['schemas']['PushDeliveryAttempt'];

export function DeliveryAttempts() {
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
