/** The operator UI: navigation and the page for the current path. */
import type { ComponentType } from 'preact';
import { Link, match, useLocation } from './router.js';
import { BrandsPage } from './pages/brands.js';
import { InGameDefinitionsPage, MatchDefinitionsPage } from './pages/definitions.js';
import { FeedbackPage } from './pages/feedback.js';
import { GroupsPage } from './pages/groups.js';
import { LeaderboardsPage } from './pages/leaderboards.js';
import { LeaguesPage } from './pages/leagues.js';
import { ListenersPage } from './pages/listeners.js';
import { MatchDetailPage } from './pages/match-detail.js';
import { MatchesPage } from './pages/matches.js';
import { PushPage } from './pages/push.js';
import { UsersPage } from './pages/users.js';

interface Route {
  pattern: string;
  component: ComponentType<{ params: Record<string, string> }>;
  nav?: string;
}

export const ROUTES: Route[] = [
  { pattern: '/admin/matches', component: MatchesPage, nav: 'Matches' },
  { pattern: '/admin/matches/:id', component: MatchDetailPage },
  { pattern: '/admin/listeners', component: ListenersPage, nav: 'Listeners' },
  { pattern: '/admin/definitions', component: InGameDefinitionsPage, nav: 'In-game questions' },
  { pattern: '/admin/match-definitions', component: MatchDefinitionsPage, nav: 'Match questions' },
  { pattern: '/admin/groups', component: GroupsPage, nav: 'Question groups' },
  { pattern: '/admin/leagues', component: LeaguesPage, nav: 'Leagues' },
  { pattern: '/admin/brands', component: BrandsPage, nav: 'Brands' },
  { pattern: '/admin/users', component: UsersPage, nav: 'Users' },
  { pattern: '/admin/leaderboards', component: LeaderboardsPage, nav: 'Leaderboards' },
  { pattern: '/admin/feedback', component: FeedbackPage, nav: 'Feedback' },
  { pattern: '/admin/push', component: PushPage, nav: 'Push' },
];

export function App({ user, csrf }: { user: string; csrf: string }) {
  const { path } = useLocation();
  const normalized = path.replace(/\/+$/, '') || '/admin';
  let Current: ComponentType<{ params: Record<string, string> }> = MatchesPage;
  let params: Record<string, string> = {};
  for (const r of ROUTES) {
    const m = match(r.pattern, normalized);
    if (m) {
      Current = r.component;
      params = m;
      break;
    }
  }
  return (
    <div class="shell">
      <nav class="nav" aria-label="Operator pages">
        <div class="brand">Question-Play</div>
        <ul>
          {ROUTES.filter((r) => r.nav).map((r) => (
            <li>
              <Link
                href={r.pattern}
                class={normalized.startsWith(r.pattern) || (normalized === '/admin' && r.component === MatchesPage) ? 'active' : ''}
                aria-current={normalized.startsWith(r.pattern) || (normalized === '/admin' && r.component === MatchesPage) ? 'page' : undefined}
              >
                {r.nav}
              </Link>
            </li>
          ))}
        </ul>
        <form method="post" action="/admin/logout" class="signout">
          <input type="hidden" name="csrf" value={csrf} />
          <span class="who">{user}</span>
          <button type="submit" class="link">
            Sign out
          </button>
        </form>
      </nav>
      <main class="content">
        <Current params={params} />
      </main>
    </div>
  );
}
