/** The filters of a definition list and the list query they make, kept in the query string. */
import { setQuery } from '../../router.js';
import { Checkbox, Field, TextInput } from '../common.js';
import { LeagueSelect } from '../leagues.js';

/** A UTC calendar day (yyyy-mm-dd) as the instant it starts. */
export const dayStart = (day: string) => (day ? `${day}T00:00:00Z` : undefined);

/** The filters of a definition list, all kept in the query string. */
export function DefinitionFilters({
  query,
  league,
  archivedLabel,
  pivotal,
}: {
  query: URLSearchParams;
  league: string;
  archivedLabel: string;
  pivotal: boolean;
}) {
  const date = (key: string, label: string) => (
    <Field label={label}>
      <input type="date" value={query.get(key) ?? ''} onInput={(e) => setQuery({ [key]: (e.target as HTMLInputElement).value })} />
    </Field>
  );
  return (
    <div class="filters definition-filters">
      <Field label="League">
        <LeagueSelect remember value={league} onValue={(v) => setQuery({ league: v, edit: undefined })} />
      </Field>
      <Field label="Search (name or id)">
        <TextInput type="search" value={query.get('q') ?? ''} onValue={(v) => setQuery({ q: v })} />
      </Field>
      {pivotal ? (
        <Field label="Pivotal">
          <select value={query.get('pivotal') ?? ''} onChange={(e) => setQuery({ pivotal: (e.target as HTMLSelectElement).value })} aria-label="Pivotal">
            <option value="">Any</option>
            <option value="true">Pivotal only</option>
            <option value="false">Regular only</option>
          </select>
        </Field>
      ) : null}
      {date('created_from', 'Created from (UTC)')}
      {date('created_to', 'Created before (UTC)')}
      {date('updated_from', 'Updated from (UTC)')}
      {date('updated_to', 'Updated before (UTC)')}
      <Checkbox checked={query.get('archived') === 'true'} onValue={(v) => setQuery({ archived: v ? 'true' : undefined })} label={archivedLabel} />
    </div>
  );
}

/** The list query of both definition kinds from the page's query string. */
export function definitionListQuery(query: URLSearchParams) {
  const q = query.get('q') ?? '';
  const range = (key: string) => dayStart(query.get(key) ?? '');
  const out: { include_inactive?: boolean; q?: string; created_from?: string; created_to?: string; updated_from?: string; updated_to?: string } = {};
  if (query.get('archived') === 'true') out.include_inactive = true;
  if (q) out.q = q;
  for (const key of ['created_from', 'created_to', 'updated_from', 'updated_to'] as const) {
    const v = range(key);
    if (v) out[key] = v;
  }
  return out;
}
