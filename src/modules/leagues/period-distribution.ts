import { quote } from '../../errors.js';
import { leagueErrors } from './leagues.errors.js';

/**
 * Checks a period distribution from a request: an object mapping period keys
 * of the sport to non-negative integers. The contract leaves the shape open so
 * that a bad one answers 400 (a rule of the settings, not of the schema), not 422.
 */
export function parsePeriodDistribution(
  field: string,
  value: unknown,
  periods: readonly string[],
  { nullable }: { nullable: boolean },
): Record<string, number> | null {
  if (value === null) {
    if (nullable) return null;
    throw leagueErrors.periodDistributionInvalid(field, 'must be an object mapping period keys to non-negative integers, not null');
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw leagueErrors.periodDistributionInvalid(field, `must be an object mapping period keys (${periods.join(', ')}) to non-negative integers`);
  }
  const out: Record<string, number> = {};
  for (const [key, n] of Object.entries(value as Record<string, unknown>)) {
    if (!periods.includes(key)) {
      throw leagueErrors.periodDistributionInvalid(field, `has unknown period ${quote(key)}; the periods of this sport are ${periods.join(', ')}`);
    }
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 1000) {
      throw leagueErrors.periodDistributionInvalid(
        `${field}[${quote(key)}]`,
        `must be an integer from 0 to 1000, got ${quote(JSON.stringify(n) ?? 'nothing')}`,
      );
    }
    out[key] = n;
  }
  return out;
}
