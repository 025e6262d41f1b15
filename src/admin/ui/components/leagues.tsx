/** Leagues are needed by most pages: loaded once, shared. */
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, unwrap } from '../api.js';
import { ErrorBox } from './common.js';

export type League = components['schemas']['League'];

let cache: Promise<League[]> | null = null;

export function loadLeagues(refresh = false): Promise<League[]> {
  if (!cache || refresh) {
    cache = unwrap(() => api.GET('/api/leagues'));
    // A failed load is not kept: the next page that needs the leagues asks again.
    cache.catch(() => (cache = null));
  }
  return cache;
}

/** The leagues, and the API's error when they could not be loaded. */
export function useLeaguesState(): { leagues: League[]; error: unknown } {
  const [state, setState] = useState<{ leagues: League[]; error: unknown }>({ leagues: [], error: null });
  useEffect(() => {
    loadLeagues().then(
      (leagues) => setState({ leagues, error: null }),
      (error: unknown) => setState({ leagues: [], error }),
    );
  }, []);
  return state;
}

export function useLeagues(): League[] {
  return useLeaguesState().leagues;
}

export function LeagueSelect({ value, onValue, allowAll = false }: { value: string; onValue: (slug: string) => void; allowAll?: boolean }) {
  const { leagues, error } = useLeaguesState();
  return (
    <>
      <select value={value} onChange={(e) => onValue((e.target as HTMLSelectElement).value)} aria-label="League">
        {allowAll ? <option value="">All leagues</option> : null}
        {leagues.map((l) => (
          <option value={l.slug}>
            {l.name} ({l.slug})
          </option>
        ))}
      </select>
      {error ? <ErrorBox error={error} /> : null}
    </>
  );
}
