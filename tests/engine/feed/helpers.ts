/**
 * Shared by the feed tests: where the real match fixtures live (in the
 * repository, tests/fixtures, with their terms beside them), and a validator of the contract's FeedEvent schema so every produced event
 * is checked against the contract, not against our own type only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvModule from 'ajv';
import type { FeedEvent } from '../../../src/domain/sports/events.js';
import { contractDocument } from '../../../src/http/contract.js';
import { addContractFormats } from '../../../src/http/validation-formats.js';

/** tests/fixtures: the recorded matches the tests and the README's examples use (tests/fixtures/README.md). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export const readFixture = (relative: string): string => fs.readFileSync(path.join(FIXTURES_DIR, relative), 'utf8');

const Ajv = AjvModule.default ?? AjvModule;
const ajv = new Ajv({ strict: false, allErrors: true });
addContractFormats(ajv);
const schemas = (contractDocument() as { components: { schemas: Record<string, unknown> } }).components.schemas;
const validateFeedEvent = ajv.compile(schemas.FeedEvent as object);

/** Errors of the first events that break the contract's FeedEvent schema (empty when all conform). */
export function contractErrors(events: readonly FeedEvent[]): string[] {
  const errors: string[] = [];
  for (const e of events) {
    const id = e.provider_event_id;
    if (!validateFeedEvent(e)) errors.push(`${id}: ${ajv.errorsText(validateFeedEvent.errors)}`);
    if (errors.length >= 5) break;
  }
  return errors;
}

/** Envelope invariants every normalized feed must keep. */
export function envelopeProblems(events: readonly FeedEvent[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  let previousAt = -Infinity;
  events.forEach((e, i) => {
    if (e.seq !== i + 1) problems.push(`event ${i}: seq ${e.seq}, expected ${i + 1}`);
    if (ids.has(e.provider_event_id)) problems.push(`duplicate id ${e.provider_event_id}`);
    ids.add(e.provider_event_id);
    if (e.operation !== 'create' || e.final !== true) problems.push(`${e.provider_event_id}: not a final create`);
    const at = Date.parse(e.occurred_at);
    if (!(at >= previousAt)) problems.push(`${e.provider_event_id}: occurred_at goes back`);
    previousAt = at;
    if (e.clock_seconds !== null && !Number.isInteger(e.clock_seconds)) problems.push(`${e.provider_event_id}: clock_seconds not whole`);
  });
  return problems.slice(0, 5);
}
