/**
 * Types and small pieces shared by the sections of the match page: the brand
 * chip and the "value (source)" display of an inherited setting.
 */
import type { components } from '../../../../../generated/api-types.js';
import { Badge } from '../common.js';

export type Match = components['schemas']['MatchDetail'];
export type BrandSummary = components['schemas']['BrandSummary'];
export type SettingSource = components['schemas']['SettingSource'];
/** The two kinds of question a match issues. */
export type QuestionKind = 'in_game' | 'match';

export function BrandChip({ brand, prefix }: { brand: BrandSummary | null | undefined; prefix?: string }) {
  if (!brand) return <span class="muted">-</span>;
  return (
    <span class="brand-chip" title={brand.id}>
      <i class="swatch" style={{ background: brand.primary_color }} />
      {prefix ? `${prefix} ` : ''}
      {brand.name}
    </span>
  );
}

const SOURCE_TONE: Record<SettingSource, 'neutral' | 'good' | 'warn' | 'live'> = { league: 'neutral', group: 'warn', definition: 'good', match: 'live' };
export function Source({ source }: { source: SettingSource }) {
  return (
    <span class={`source source-${source}`} title={`from the ${source}`}>
      <Badge tone={SOURCE_TONE[source]}>{source}</Badge>
    </span>
  );
}

export const fmtValue = (v: unknown) => (v === null || v === undefined ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function Inherited({ value, source }: { value: unknown; source: SettingSource }) {
  return (
    <span class="inherited">
      <code>{fmtValue(value)}</code> <Source source={source} />
    </span>
  );
}
