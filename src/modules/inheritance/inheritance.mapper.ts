import type { components } from '../../../generated/api-types.js';
import type { IssuanceTraceRow } from './inheritance.repository.js';

export type IssuanceDecisionTraceDto = components['schemas']['IssuanceDecisionTrace'];

export function toIssuanceDecisionTrace(row: IssuanceTraceRow): IssuanceDecisionTraceDto {
  return {
    question_issuance_id: row.id,
    definition_id: row.definitionId,
    issued_at: row.issuedAt.toISOString(),
    steps: row.decisionTrace.map((s) => ({ step: s.step, passed: s.passed, detail: s.detail })),
  };
}
