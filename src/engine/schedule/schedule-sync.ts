/**
 * Schedule sync: a provider adapter brings matches in (external sr_id,
 * teams, league, kick-off, status), and one upsert by sr_id writes them. A
 * provider never overrides what the live engine owns: once a match has
 * started, only its result may still be filled in (a finished match imported
 * from a results file closes with its final result, so Match questions can
 * resolve from it).
 *
 * Feed URLs a provider carries are checked as an operator's are (http or
 * https, no credentials, public hosts unless allowed) before anything is
 * written, and fill in only matches without one: a feed an operator attached,
 * changed or detached (PATCH feed_url null) is never replaced by a later sync.
 */
import type { Db } from '../../db/client.js';
import { leagueIdsBySlug } from '../../modules/leagues/leagues.public.js';
import { feedUrlProblem, type FeedUrlPolicy } from '../../modules/matches/feed-url.js';
import { matchErrors } from '../../modules/matches/matches.errors.js';
import { moveMatchQuestionsClosing } from '../../modules/issuances/issuances.public.js';
import { lockStatusesBySrId, upsertScheduledMatches } from '../../modules/matches/matches.public.js';

export interface ScheduledMatch {
  srId: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  scheduled: Date;
  status?: 'scheduled' | 'postponed' | 'cancelled' | 'closed';
  venue?: string | null;
  feedUrl?: string | null;
  /** Final result of a finished match (closed). */
  result?: Record<string, unknown> | null;
}

/** A source of schedules: a provider's API, a results file, the demo. */
export interface ScheduleProvider {
  name: string;
  fetch(): Promise<ScheduledMatch[]>;
}

export interface SyncReport {
  provider: string;
  received: number;
  written: number;
  unknownLeagues: string[];
}

const BATCH = 200;

export interface SyncOptions {
  db: Db;
  provider: ScheduleProvider;
  /** Told after each batch committed about every match whose status the sync changed (live delivery sends `match_closed`). */
  onStatusChanged?: (matchId: string, status: string) => Promise<void>;
  /** Which hosts the provider's feed URLs may name; by default public ones only. */
  feedUrlPolicy?: FeedUrlPolicy;
}

export async function syncSchedule({ db, provider, onStatusChanged, feedUrlPolicy = { allowPrivateAddresses: false } }: SyncOptions): Promise<SyncReport> {
  const incoming = await provider.fetch();
  // All checked before the first write: a provider with one bad feed URL changes nothing.
  for (const m of incoming) {
    const problem = m.feedUrl ? feedUrlProblem(m.feedUrl, feedUrlPolicy) : null;
    if (problem) throw matchErrors.invalidFeedUrl(`${provider.name}: the feed URL of match ${m.srId}`, problem);
  }
  const leagueIds = await leagueIdsBySlug({ db });
  const unknown = new Set<string>();
  const rows = incoming.flatMap((m) => {
    const leagueId = leagueIds.get(m.league);
    if (!leagueId) {
      unknown.add(m.league);
      return [];
    }
    const closed = m.status === 'closed' && m.result;
    return [
      {
        srId: m.srId,
        leagueId,
        homeTeam: m.homeTeam,
        awayTeam: m.awayTeam,
        scheduled: m.scheduled,
        status: m.status ?? 'scheduled',
        venue: m.venue ?? null,
        feedUrl: m.feedUrl ? new URL(m.feedUrl).href : null,
        result: closed ? m.result! : null,
        homeScore: closed ? ((m.result!.home_score as number) ?? null) : null,
        awayScore: closed ? ((m.result!.away_score as number) ?? null) : null,
      },
    ];
  });
  let written = 0;
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    // The statuses before and after are read in one transaction that holds the
    // batch's existing rows (locked in sr_id order, so two syncs cannot
    // deadlock): a listener closing a match meanwhile waits, and each status
    // change is reported exactly once.
    const changed = await db.transaction(async (tx) => {
      const before = onStatusChanged ? await lockStatusesBySrId({ tx, srIds: batch.map((r) => r.srId) }) : undefined;
      const result = await upsertScheduledMatches({ tx, rows: batch });
      written += result.length;
      // A moved kick-off moves the lock of the match's open Match questions with it.
      await moveMatchQuestionsClosing({ tx, srIds: batch.map((r) => r.srId) });
      return before ? result.filter((r) => before.has(r.srId) && before.get(r.srId) !== r.status) : [];
    });
    for (const r of changed) await onStatusChanged!(r.id, r.status);
  }
  return { provider: provider.name, received: incoming.length, written, unknownLeagues: [...unknown] };
}
