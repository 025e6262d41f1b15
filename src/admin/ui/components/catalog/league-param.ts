/** The league of a league page, kept in the address. */
import { useEffect } from 'preact/hooks';
import { setQuery } from '../../router.js';
import { rememberLeague, usePreferredLeague } from '../leagues.js';

/**
 * The league of a league page: the address's, else the preferred one (last
 * chosen, else the one with matches today), written back to the address. The
 * league shown is remembered for the next league page.
 */
export function useLeagueParam(query: URLSearchParams): string {
  const preferred = usePreferredLeague();
  const fromQuery = query.get('league') ?? '';
  const league = fromQuery || preferred;
  useEffect(() => {
    if (!fromQuery && league) setQuery({ league });
    if (league) rememberLeague(league);
  }, [fromQuery, league]);
  return league;
}
