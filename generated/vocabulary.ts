// DO NOT EDIT: generated from openapi/openapi.yaml by `npm run generate`.
/* eslint-disable */
// The contract's named string enums: one const list and one type per schema.

/** `pending` until the question resolves; `void` for voided or revoked questions. */
export const AnswerOutcome = ['pending', 'correct', 'incorrect', 'void'] as const;
export type AnswerOutcome = (typeof AnswerOutcome)[number];

/** `open` (answerable until `closes_at`), `locked` (Match questions after kick-off, awaiting the result), `resolved`, `voided` (could not resolve; scores nothing), `revoked` (withdrawn by stop-listener; scores nothing). */
export const IssuanceStatus = ['open', 'locked', 'resolved', 'voided', 'revoked'] as const;
export type IssuanceStatus = (typeof IssuanceStatus)[number];

/** `feed`: the provider's live push feed; `replay`: recorded events at `speed`. */
export const ListenerSource = ['feed', 'replay'] as const;
export type ListenerSource = (typeof ListenerSource)[number];

/** `queued` (waiting for a process), `running` (claimed, lease renewed by heartbeat), `stopped` (by an operator), `completed` (feed ended with the match), `failed` (see `error`). */
export const ListenerStatus = ['queued', 'running', 'stopped', 'completed', 'failed'] as const;
export type ListenerStatus = (typeof ListenerStatus)[number];

/** `scheduled` (not started), `live` (in play), `break` (between periods, or play suspended), `ended` (play over, result not yet confirmed), `closed` (result final), `postponed`, `cancelled`. The live statuses are `live` and `break`. Usual flow: scheduled, live, break, live, ..., ended, closed. A live match follows its feed: a period starting, or play going on after a break, makes it `live`; a period ending makes it `break`. */
export const MatchStatus = ['scheduled', 'live', 'break', 'ended', 'closed', 'postponed', 'cancelled'] as const;
export type MatchStatus = (typeof MatchStatus)[number];

/** `delivered` (the push service accepted it), `failed` (it refused or could not be reached; see `status_code` and `error`), `skipped` (a gate held it back; see `error`). */
export const PushDeliveryStatus = ['delivered', 'failed', 'skipped'] as const;
export type PushDeliveryStatus = (typeof PushDeliveryStatus)[number];

/** `in_game`: issued by a listener on a live event; `match`: a pre-game (Match) question, issued before kick-off and resolved from the result. */
export const QuestionKind = ['in_game', 'match'] as const;
export type QuestionKind = (typeof QuestionKind)[number];

/** The level the effective value comes from. */
export const SettingSource = ['league', 'group', 'definition', 'match'] as const;
export type SettingSource = (typeof SettingSource)[number];

/** How a slot picks its question (see the assignment operation). */
export const SponsorshipStrategy = ['question_number', 'period', 'next_available', 'definition'] as const;
export type SponsorshipStrategy = (typeof SponsorshipStrategy)[number];
