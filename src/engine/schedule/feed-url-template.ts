/**
 * Feed URLs of a schedule built from a template (`--feed-url-template` of
 * schedule:sync): `{sr_id}` is replaced by each match's provider id
 * (URL-encoded). The template is checked once with an example id, and every
 * URL it builds is checked again by the sync, by the rules of a feed URL
 * (src/modules/matches/feed-url.ts).
 */
import { feedUrlProblem, type FeedUrlPolicy } from '../../modules/matches/feed-url.js';
import type { ScheduleProvider } from './schedule-sync.js';

export const SR_ID_PLACEHOLDER = '{sr_id}';

export const feedUrlOf = (template: string, srId: string): string => template.replaceAll(SR_ID_PLACEHOLDER, encodeURIComponent(srId));

/** What is wrong with the template, or null. */
export function feedUrlTemplateProblem(template: string, policy: FeedUrlPolicy): string | null {
  if (!template.includes(SR_ID_PLACEHOLDER))
    return `must contain ${SR_ID_PLACEHOLDER} (every match has a feed of its own), like https://feeds.example.com/${SR_ID_PLACEHOLDER}`;
  const problem = feedUrlProblem(feedUrlOf(template, 'openfootball:wc2022:1'), policy);
  return problem ? `builds feed URLs that are refused: a feed URL ${problem}` : null;
}

/** The provider's matches, each without a feed URL of its own given one from the template. */
export function withFeedUrlTemplate(provider: ScheduleProvider, template: string): ScheduleProvider {
  return {
    name: provider.name,
    fetch: async () => (await provider.fetch()).map((m) => (m.feedUrl ? m : { ...m, feedUrl: feedUrlOf(template, m.srId) })),
  };
}
