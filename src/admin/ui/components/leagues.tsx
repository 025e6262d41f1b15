/** Leagues are needed by most pages: loaded once, shared. */
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';

export type League = components['schemas']['League'];

let cache: Promise<League[]> | null = null;

export function loadLeagues(refresh = false): Promise<League[]> {
  if (!cache || refresh) cache = unwrap(() => api.GET('/api/leagues'));
  return cache;
}

export function useLeagues(): League[] {
  const [leagues, setLeagues] = useState<League[]>([]);
  useEffect(() => {
    loadLeagues().then(setLeagues, () => setLeagues([]));
  }, []);
  return leagues;
}

export function LeagueSelect({ value, onValue, allowAll = false }: { value: string; onValue: (slug: string) => void; allowAll?: boolean }) {
  const leagues = useLeagues();
  return (
    <select value={value} onChange={(e) => onValue((e.target as HTMLSelectElement).value)} aria-label="League">
      {allowAll ? <option value="">All leagues</option> : null}
      {leagues.map((l) => (
        <option value={l.slug}>
          {l.name} ({l.slug})
        </option>
      ))}
    </select>
  );
}
