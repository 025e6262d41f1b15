/**
 * Player feedback on resolved answers, with every admin filter of
 * GET /api/user-feedback (user, match, created range, subject type, topic
 * from the form catalog) and paging over `feedback_count`.
 */
import { useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { ErrorBox, Field, Loading, Page, Table, TextInput, useAsync } from '../components/common.js';
import { Pager, fmtWhen, queryPaging, shortId, utcDayRange } from '../components/controls.js';
import { Link, setQuery, useLocation } from '../router.js';

type Feedback = components['schemas']['Feedback'];

export function FeedbackPage() {
  const { query } = useLocation();
  const userId = query.get('user_id') ?? '';
  const matchId = query.get('match_id') ?? '';
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const subjectType = query.get('subject_type') ?? '';
  const topic = query.get('topic') ?? '';
  const paging = queryPaging(query);
  const { offset, limit } = paging;
  const [ids, setIds] = useState({ user_id: userId, match_id: matchId });

  const form = useAsync(() => unwrap(() => api.GET('/api/user-feedback/form')), []);
  const types = form.data?.subject_types ?? [];
  const topics = subjectType
    ? (types.find((t) => t.subject_type === subjectType)?.topics ?? [])
    : [...new Map(types.flatMap((t) => t.topics).map((t) => [t.topic, t])).values()];
  const typeLabel = (s: string) => types.find((t) => t.subject_type === s)?.label ?? s;
  const topicLabel = (s: string, tp: string) => types.find((t) => t.subject_type === s)?.topics.find((x) => x.topic === tp)?.label ?? tp;

  const list = useAsync(
    () =>
      unwrap(() =>
        api.GET('/api/user-feedback', {
          params: {
            query: {
              ...(userId ? { user_id: userId } : {}),
              ...(matchId ? { match_id: matchId } : {}),
              // From the start of the "from" day to the end of the "to" day. The API wants both bounds or neither; a single one goes as given, and its 400 shows as worded.
              ...(from ? { created_from: utcDayRange(from).from } : {}),
              ...(to ? { created_to: utcDayRange(to).to } : {}),
              ...(subjectType ? { subject_type: subjectType } : {}),
              ...(topic ? { topic } : {}),
              offset,
              limit,
            },
          },
        }),
      ),
    [userId, matchId, from, to, subjectType, topic, offset, limit],
  );
  const filter = (values: Record<string, string | undefined>) => setQuery({ ...values, offset: undefined });
  const data = list.data;

  return (
    <Page title="Feedback">
      <form
        class="filters"
        role="search"
        aria-label="Filter feedback"
        onSubmit={(e) => {
          e.preventDefault();
          filter({ user_id: ids.user_id.trim() || undefined, match_id: ids.match_id.trim() || undefined });
        }}
      >
        <Field label="User id">
          <TextInput value={ids.user_id} onValue={(v) => setIds({ ...ids, user_id: v })} placeholder="user uuid" size={20} />
        </Field>
        <Field label="Match id">
          <TextInput value={ids.match_id} onValue={(v) => setIds({ ...ids, match_id: v })} placeholder="match uuid" size={20} />
        </Field>
        <Field label="Created from (UTC day)">
          <input type="date" value={from} onInput={(e) => filter({ from: (e.target as HTMLInputElement).value })} />
        </Field>
        <Field label="Created to (UTC day, included)">
          <input type="date" value={to} onInput={(e) => filter({ to: (e.target as HTMLInputElement).value })} />
        </Field>
        <Field label="Subject type">
          <select
            value={subjectType}
            aria-label="Subject type"
            onChange={(e) => filter({ subject_type: (e.target as HTMLSelectElement).value, topic: undefined })}
          >
            <option value="">Any</option>
            {types.map((t) => (
              <option value={t.subject_type}>{t.label}</option>
            ))}
          </select>
        </Field>
        <Field label="Topic">
          <select value={topic} aria-label="Topic" onChange={(e) => filter({ topic: (e.target as HTMLSelectElement).value })}>
            <option value="">Any</option>
            {topics.map((t) => (
              <option value={t.topic}>{t.label}</option>
            ))}
          </select>
        </Field>
        <button type="submit">Apply</button>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setIds({ user_id: '', match_id: '' });
            setQuery({ user_id: undefined, match_id: undefined, from: undefined, to: undefined, subject_type: undefined, topic: undefined, offset: undefined });
          }}
        >
          Clear filters
        </button>
      </form>
      <ErrorBox error={form.error ?? list.error} />
      <Loading when={list.loading && !data} />
      <Table<Feedback>
        rows={data?.feedback ?? []}
        rowKey={(f) => f.id}
        empty="No feedback matches these filters."
        columns={[
          { label: 'Filed', cell: (f) => <span class="text-small nowrap">{fmtWhen(f.created_at)}</span> },
          { label: 'Subject', cell: (f) => typeLabel(f.subject_type) },
          { label: 'Topic', cell: (f) => topicLabel(f.subject_type, f.topic) },
          { label: 'Description', class: 'wide-cell', cell: (f) => f.description ?? <span class="muted">-</span> },
          {
            label: 'User',
            cell: (f) => (
              <Link href={`/admin/users?user=${f.user_id}`} title={f.user_id}>
                {shortId(f.user_id)}
              </Link>
            ),
          },
          {
            label: 'Match',
            cell: (f) => (
              <span class="text-small nowrap">
                <Link href={`/admin/matches/${f.match_id}`} title={f.match_id}>
                  {shortId(f.match_id)}
                </Link>{' '}
                <button
                  type="button"
                  class="link"
                  onClick={() => {
                    setIds({ ...ids, match_id: f.match_id });
                    filter({ match_id: f.match_id });
                  }}
                >
                  filter
                </button>
              </span>
            ),
          },
          { label: 'Question', cell: (f) => <code title={f.question_issuance_id}>{shortId(f.question_issuance_id)}</code> },
        ]}
      />
      {data ? <Pager label="feedback rows" total={data.feedback_count} {...paging} /> : null}
    </Page>
  );
}
