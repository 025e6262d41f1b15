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

/** Where the league last chosen on a league page is kept, so the next page opens on it too. */
const CHOSEN_LEAGUE_KEY = 'qp.admin.league';

export function rememberLeague(slug: string): void {
  try {
    localStorage.setItem(CHOSEN_LEAGUE_KEY, slug);
  } catch {
    // Storage refused (private mode, quota): pages fall back to the league with matches.
  }
}

function chosenLeague(): string | null {
  try {
    return localStorage.getItem(CHOSEN_LEAGUE_KEY);
  } catch {
    return null;
  }
}

let busiest: Promise<string | null> | null = null;

/** The league with the most matches today (one request per page load): where an operator's work is. */
function busiestLeagueToday(): Promise<string | null> {
  busiest ??= unwrap(() => api.GET('/api/matches', { params: { query: {} } })).then(
    (matches) => {
      const counts = new Map<string, number>();
      for (const m of matches) counts.set(m.league, (counts.get(m.league) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
    },
    () => null,
  );
  return busiest;
}

/**
 * The league a league page opens on when its address names none: the one
 * last chosen on any page, else the league with the most matches today, else
 * the first. Empty until the leagues are loaded.
 */
export function usePreferredLeague(): string {
  const leagues = useLeagues();
  const [preferred, setPreferred] = useState('');
  useEffect(() => {
    if (!leagues.length) return;
    const known = (slug: string | null) => (slug && leagues.some((l) => l.slug === slug) ? slug : null);
    const chosen = known(chosenLeague());
    if (chosen) {
      setPreferred(chosen);
      return;
    }
    let live = true;
    void busiestLeagueToday().then((slug) => {
      if (live) setPreferred(known(slug) ?? leagues[0]!.slug);
    });
    return () => {
      live = false;
    };
  }, [leagues]);
  return preferred;
}

/**
 * The league picker. On a league page (`remember`) the choice is remembered
 * as it is made, not in an effect after the next paint: a page opened at once
 * after the choice must open on it.
 */
export function LeagueSelect({
  value,
  onValue,
  allowAll = false,
  remember = false,
}: {
  value: string;
  onValue: (slug: string) => void;
  allowAll?: boolean;
  remember?: boolean;
}) {
  const { leagues, error } = useLeaguesState();
  const choose = (slug: string) => {
    if (remember && slug) rememberLeague(slug);
    onValue(slug);
  };
  return (
    <>
      <select value={value} onChange={(e) => choose((e.target as HTMLSelectElement).value)} aria-label="League">
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
