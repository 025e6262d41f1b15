/**
 * The sample catalog (canonical event types of a league's sport, with sample
 * events) and the question preview, which renders a definition's text and
 * labels from a sample event through the engine's own code path. Neither
 * reads nor writes the database.
 */
import type { components } from '../../../generated/api-types.js';
import { genericSampleEvent, matchAtEvent, sampleEvent, sampleMatch, sportCatalog } from '../../engine/feed/sports.js';
import type { FeedEvent } from '../../engine/feed/events.js';
import { definitionErrorToBadRequest, extractIssuanceState, renderQuestion, type MatchContext } from '../../engine/question-render.js';
import { AppError, badRequest } from '../../errors.js';
import { SPORT_PERIODS, supportedLeague, type Sport } from '../leagues/league-registry.js';

type SampleCatalog = components['schemas']['SampleCatalog'];
type PreviewRequest = components['schemas']['QuestionPreviewRequest'];
type QuestionPreview = components['schemas']['QuestionPreview'];

export function getSampleCatalog({ league: slug, includeSamples }: { league: string; includeSamples: boolean }): SampleCatalog {
  const league = supportedLeague(slug);
  return {
    league: league.slug,
    sport: league.sport,
    periods: [...SPORT_PERIODS[league.sport]],
    match: sampleMatch(league.slug, league.sport),
    event_types: sportCatalog(league.sport).map((info) => ({
      type: info.type,
      description: info.description,
      data_fields: info.data_fields.map((f) => ({ ...f })),
      ...(includeSamples ? { sample: structuredClone(info.sample) } : {}),
    })),
  };
}

const EVENT_FIELDS = ['provider_event_id', 'seq', 'operation', 'type', 'period', 'clock_seconds', 'occurred_at', 'team', 'score', 'final', 'data'] as const;
const EVENT_TYPE = /^[a-z][a-z0-9_]{0,63}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

const invalidEvent = (problem: string) => badRequest('preview.sample_event_invalid', `sample_event: ${problem}`);

/**
 * An inline sample event completed from the catalog sample of its type (or a
 * neutral event for a type the catalog lacks): top-level fields it omits are
 * the sample's, and `score` and `data` are merged key by key. 400 unless the
 * result is a plausible feed event of the sport.
 */
function completeInlineEvent(sport: Sport, inline: Record<string, unknown>): FeedEvent {
  const unknown = Object.keys(inline).filter((k) => !(EVENT_FIELDS as readonly string[]).includes(k));
  if (unknown.length) throw invalidEvent(`unknown field(s) ${unknown.join(', ')}; a feed event has ${EVENT_FIELDS.join(', ')}`);
  const { type } = inline;
  if (typeof type !== 'string' || !EVENT_TYPE.test(type)) throw invalidEvent(`type is required: a canonical event type such as '${sportCatalog(sport)[0]!.type}'`);
  const base = sampleEvent(sport, type) ?? genericSampleEvent(sport, type);
  const mergeKey = (key: 'score' | 'data') => (isPlainObject(inline[key]) ? { ...base[key], ...(inline[key] as object) } : inline[key] === undefined ? base[key] : inline[key]);
  const event = { ...base, ...inline, score: mergeKey('score'), data: mergeKey('data') } as Record<string, unknown>;

  const periods = SPORT_PERIODS[sport];
  const problems: string[] = [];
  if (typeof event.provider_event_id !== 'string' || !event.provider_event_id || event.provider_event_id.length > 200) problems.push('provider_event_id must be a non-empty string');
  if (!isCount(event.seq)) problems.push('seq must be an integer >= 0');
  if (!['create', 'update', 'delete'].includes(event.operation as string)) problems.push('operation must be create, update or delete');
  if (event.period !== null && !periods.includes(event.period as string)) problems.push(`period must be null or a ${sport} period (${periods.join(', ')})`);
  if (event.clock_seconds !== null && !isCount(event.clock_seconds)) problems.push('clock_seconds must be null or an integer >= 0');
  if (typeof event.occurred_at !== 'string' || !DATE_TIME.test(event.occurred_at) || Number.isNaN(Date.parse(event.occurred_at))) {
    problems.push('occurred_at must be an ISO 8601 date-time such as 2026-06-14T19:52:07Z');
  }
  if (event.team !== null && event.team !== 'home' && event.team !== 'away') problems.push('team must be home, away or null');
  const score = event.score;
  if (!isPlainObject(score) || !isCount(score.home) || !isCount(score.away)) problems.push('score must be {home, away} with integers >= 0');
  if (typeof event.final !== 'boolean') problems.push('final must be a boolean');
  if (!isPlainObject(event.data)) problems.push('data must be an object');
  if (problems.length) throw invalidEvent(problems.join('; '));
  return event as unknown as FeedEvent;
}

function mergeMatch(base: MatchContext, overrides: Record<string, unknown> | undefined): MatchContext {
  if (!overrides) return base;
  const score = isPlainObject(overrides.score) ? { ...base.score, ...overrides.score } : (overrides.score ?? base.score);
  return { ...base, ...overrides, score } as MatchContext;
}

/** Renders a question from a sample event exactly as the live engine does when a trigger fires; persists nothing. */
export async function previewQuestion(body: PreviewRequest): Promise<QuestionPreview> {
  const league = supportedLeague(body.league);
  const byType = body.sample_event_type !== undefined;
  if (byType === (body.sample_event !== undefined)) {
    throw badRequest('preview.sample_required', 'give exactly one of sample_event_type (a type of the sample catalog) or sample_event (an inline event)');
  }
  let event: FeedEvent;
  if (byType) {
    const found = sampleEvent(league.sport, body.sample_event_type!);
    if (!found) {
      const known = sportCatalog(league.sport).map((e) => e.type).join(', ');
      throw new AppError(404, 'sample_event.not_found', `sample event type '${body.sample_event_type}' not found in the ${league.slug} (${league.sport}) catalog; known: ${known}`);
    }
    event = found;
  } else {
    event = completeInlineEvent(league.sport, body.sample_event!);
  }
  const choices = body.choices ?? [];
  const duplicate = choices.find((c, i) => choices.findIndex((d) => d.identifier === c.identifier) !== i);
  if (duplicate) throw badRequest('preview.duplicate_choice', `choices: identifier '${duplicate.identifier}' is used more than once`);

  const match = mergeMatch(matchAtEvent(sampleMatch(league.slug, league.sport), event), body.match);
  const state = body.store_state ?? {};
  try {
    const extract = await extractIssuanceState(body.issuance_state_extract, { event, state, match });
    const rendered = await renderQuestion({ question_text_template: body.question_text_template, choices }, { event, state, match, extract });
    return { question_text: rendered.question_text, choices: rendered.choices, extract, event, match, state };
  } catch (err) {
    throw definitionErrorToBadRequest(err);
  }
}
