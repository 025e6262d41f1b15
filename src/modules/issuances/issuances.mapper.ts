import type { components } from '../../../generated/api-types.js';
import { settled } from '../../domain/statuses.js';
import type { IssuanceDenialRow } from '../denials/denials.table.js';
import { toMatchRef } from '../listeners/listeners.mapper.js';
import type { OwnAnswer, SettlementRow, TimelineEventRow } from './issuances.repository.js';
import type { BrandSnapshot, QuestionIssuanceRow } from './issuances.table.js';
import { toCrowd, type CrowdCounts } from '../answers/crowd.js';

type Schemas = components['schemas'];
export type QuestionIssuanceDto = Schemas['QuestionIssuance'];
export type QuestionResolutionDto = Schemas['QuestionResolution'];

/**
 * A settlement as one receiver sees it (with their answer, or none): the
 * live stream's `resolution` message and an item of its catch-up read alike.
 */
export function toQuestionResolution({ issuance, match, league }: SettlementRow, answer: OwnAnswer | null): QuestionResolutionDto {
  const status = issuance.status as QuestionResolutionDto['status'];
  return {
    type: 'resolution',
    question_issuance_id: issuance.id,
    resolution_seq: issuance.resolutionSeq,
    match_id: issuance.matchId,
    kind: issuance.kind as QuestionResolutionDto['kind'],
    match: toMatchRef(match, league),
    question_text: issuance.questionText,
    choices: issuance.choices.map((c) => ({ identifier: c.identifier, label: c.label })),
    status,
    correct_answer_identifier: status === 'resolved' ? issuance.correctAnswerIdentifier : null,
    points_possible: issuance.points,
    resolved_at: issuance.resolvedAt ? issuance.resolvedAt.toISOString() : null,
    crowd: toCrowd(issuance.choices, issuance.crowd ?? {}),
    answer: answer ? resolutionAnswer(answer) : null,
  };
}

/** A receiver's own answer as a resolution shows it. */
export const resolutionAnswer = (answer: OwnAnswer): NonNullable<QuestionResolutionDto['answer']> => ({
  selected_answer_identifier: answer.selected,
  outcome: answer.outcome === 'correct' || answer.outcome === 'incorrect' ? answer.outcome : 'void',
  points_awarded: answer.points,
});

/** Whole seconds until the issuance closes (0 once closed): `seconds_remaining` of open questions, push gates and TTLs. */
export const secondsRemaining = (issuance: Pick<QuestionIssuanceRow, 'closesAt'>, at: Date): number =>
  Math.max(0, Math.floor((issuance.closesAt.getTime() - at.getTime()) / 1000));
export type IssuanceDenialDto = Schemas['IssuanceDenial'];
export type TimelinePointDto = Schemas['TimelinePoint'];
export type TimelineMarkerDto = Schemas['TimelineMarker'];

const toBrandSummary = (b: BrandSnapshot | null | undefined): Schemas['BrandSummary'] | null =>
  b ? { id: b.id, name: b.name, primary_color: b.primary_color, secondary_color: b.secondary_color ?? null, logo_url: b.logo_url ?? null } : null;

/** `counts`: answers per choice (the crowd), counted at the read or stored at settlement. */
export function toQuestionIssuanceDto(row: QuestionIssuanceRow, counts: CrowdCounts): QuestionIssuanceDto {
  const crowd = toCrowd(row.choices, counts);
  return {
    id: row.id,
    match_id: row.matchId,
    kind: row.kind as QuestionIssuanceDto['kind'],
    definition_id: row.kind === 'match' ? row.matchQuestionDefinitionId : row.definitionId,
    definition_name: row.definitionName,
    group_id: row.groupId,
    question_number: row.questionNumber,
    is_pivotal_moment: row.isPivotalMoment,
    status: row.status as QuestionIssuanceDto['status'],
    question_text: row.questionText,
    choices: row.choices.map((c) => ({ identifier: c.identifier, label: c.label })),
    state: row.state,
    trigger_event_id: row.triggerEventId,
    period: row.period,
    clock_seconds: row.clockSeconds,
    issued_at: row.issuedAt.toISOString(),
    closes_at: row.closesAt.toISOString(),
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    correct_answer_identifier: row.correctAnswerIdentifier,
    points: row.points,
    answer_count: crowd.answer_count,
    crowd,
    sponsor_brand: toBrandSummary(row.sponsorBrand),
    match_sponsor_brand: toBrandSummary(row.matchSponsorBrand),
  };
}

export function toIssuanceDenialDto(row: IssuanceDenialRow): IssuanceDenialDto {
  return {
    id: row.id,
    match_id: row.matchId,
    listener_id: row.listenerId,
    definition_id: row.definitionId,
    definition_name: row.definitionName,
    failed_step: row.failedStep,
    detail: row.detail,
    trigger_event_id: row.triggerEventId,
    trigger_event_type: row.triggerEventType,
    period: row.period,
    clock_seconds: row.clockSeconds,
    created_at: row.createdAt.toISOString(),
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

function isoOr(value: unknown, fallback: Date): string {
  const d = typeof value === 'string' ? new Date(value) : null;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : fallback.toISOString();
}

/** A stored feed event as a timeline point (the recorded JSON is the engine's normalized event; missing fields read as null). */
export function toTimelinePoint(row: TimelineEventRow): TimelinePointDto {
  const e = row.event;
  const score = (e.score ?? {}) as { home?: unknown; away?: unknown };
  const team = e.team === 'home' || e.team === 'away' ? e.team : null;
  return {
    seq: row.firstSeq,
    provider_event_id: row.providerEventId,
    type: str(e.type) ?? 'unknown',
    period: str(e.period),
    clock_seconds: int(e.clock_seconds),
    occurred_at: isoOr(e.occurred_at, row.receivedAt),
    team,
    score: { home: int(score.home) ?? 0, away: int(score.away) ?? 0 },
    final: e.final === true,
  };
}

/**
 * Markers of in-game issuances: `issued` at the trigger, and `resolved`,
 * `voided` or `revoked` at the end when there is one. The end marker's period
 * and clock are those of the resolution event when the timeline holds it.
 */
export function toTimelineMarkers(rows: QuestionIssuanceRow[], pointsByEventId: Map<string, TimelinePointDto>): TimelineMarkerDto[] {
  const markers: (TimelineMarkerDto & { order: number })[] = [];
  for (const row of rows) {
    const base = { question_issuance_id: row.id, definition_id: row.definitionId, definition_name: row.definitionName, question_text: row.questionText };
    markers.push({
      ...base,
      kind: 'issued',
      seq: row.triggerSeq,
      period: row.period,
      clock_seconds: row.clockSeconds,
      at: row.issuedAt.toISOString(),
      correct_answer_identifier: null,
      order: 0,
    });
    if (settled.has(row.status)) {
      const cause = row.resolutionEventId ? pointsByEventId.get(row.resolutionEventId) : undefined;
      markers.push({
        ...base,
        kind: row.status as 'resolved' | 'voided' | 'revoked',
        seq: row.resolvedSeq,
        period: cause?.period ?? null,
        clock_seconds: cause?.clock_seconds ?? null,
        at: (row.resolvedAt ?? row.updatedAt).toISOString(),
        correct_answer_identifier: row.correctAnswerIdentifier,
        order: 1,
      });
    }
  }
  // By feed position (markers no event caused last), then time; an issue before its end; then issuance id for a stable order.
  const bySeq = (m: { seq: number | null }) => m.seq ?? Number.MAX_SAFE_INTEGER;
  markers.sort((a, b) => bySeq(a) - bySeq(b) || a.at.localeCompare(b.at) || a.order - b.order || a.question_issuance_id.localeCompare(b.question_issuance_id));
  return markers.map(({ order: _order, ...m }) => m);
}
