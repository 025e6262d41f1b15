/**
 * The sample catalog (canonical event types of a league's sport, with sample
 * events) and the question preview, which renders a definition's text and
 * labels from a sample event through the engine's own code path. Neither
 * reads nor writes the database.
 */
import type { components } from '../../../generated/api-types.js';
import { genericSampleEvent, matchAtEvent, sampleEvent, sampleMatch, sportCatalog } from '../../domain/sports/sports.js';
import type { FeedEvent } from '../../domain/sports/events.js';
import { extractIssuanceState, renderQuestion, type MatchContext } from '../../domain/question-render.js';
import { SPORT_PERIODS, type Sport } from '../../domain/sports/league-registry.js';
import { definitionErrorToBadRequest, supportedLeague } from '../shared/domain.errors.js';
import { catalogErrors } from './catalog.errors.js';
import { inAdminLane } from '../../runtime/sandbox/sandbox.js';

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

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An inline sample event (its fields checked by the contract's
 * SampleEventInput) completed from the catalog sample of its type, or a
 * neutral event for a type the catalog lacks: top-level fields it omits are
 * the sample's, and `score` and `data` are merged key by key. 400 when its
 * period is not one of the sport's (the one rule the schema cannot know).
 */
function completeInlineEvent(sport: Sport, inline: Record<string, unknown> & { type: string }): FeedEvent {
  const base = sampleEvent(sport, inline.type) ?? genericSampleEvent(sport, inline.type);
  const mergeKey = (key: 'score' | 'data') => (isPlainObject(inline[key]) ? { ...base[key], ...(inline[key] as object) } : base[key]);
  const event = { ...base, ...inline, score: mergeKey('score'), data: mergeKey('data') } as FeedEvent;
  const periods = SPORT_PERIODS[sport];
  if (event.period !== null && !periods.includes(event.period)) throw catalogErrors.sampleEventInvalid(sport, periods);
  return event;
}

function mergeMatch(base: MatchContext, overrides: Record<string, unknown> | undefined): MatchContext {
  if (!overrides) return base;
  const score = isPlainObject(overrides.score) ? { ...base.score, ...overrides.score } : (overrides.score ?? base.score);
  return { ...base, ...overrides, score } as MatchContext;
}

/** Expressions of a preview's `issuance_state_extract`, as many as a definition may have. */
export const PREVIEW_MAX_EXTRACTS = 50;

/**
 * Renders a question from a sample event exactly as the live engine does
 * when a trigger fires; persists nothing. What needs the sandbox runs in the
 * admin lane, so previews never take the engine's capacity.
 */
export function previewQuestion(body: PreviewRequest): Promise<QuestionPreview> {
  return inAdminLane(() => preview(body));
}

async function preview(body: PreviewRequest): Promise<QuestionPreview> {
  const league = supportedLeague(body.league);
  const byType = body.sample_event_type !== undefined;
  if (byType === (body.sample_event !== undefined)) throw catalogErrors.sampleRequired();
  let event: FeedEvent;
  if (byType) {
    const found = sampleEvent(league.sport, body.sample_event_type!);
    if (!found)
      throw catalogErrors.sampleEventNotFound(
        body.sample_event_type!,
        league,
        sportCatalog(league.sport).map((e) => e.type),
      );
    event = found;
  } else {
    event = completeInlineEvent(league.sport, body.sample_event!);
  }
  const choices = body.choices ?? [];
  const duplicate = choices.find((c, i) => choices.findIndex((d) => d.identifier === c.identifier) !== i);
  if (duplicate) throw catalogErrors.duplicateChoice(duplicate.identifier);

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
