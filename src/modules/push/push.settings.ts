/**
 * Push settings: the code defaults (the one place they are written), the
 * deep merge of a patch, and the template check done on save.
 */
import type { components } from '../../../generated/api-types.js';
import { compileTemplate, TemplateError } from '../../domain/language/templates.js';

export type PushSettingsValues = components['schemas']['PushSettingsValues'];
export type PushSettingsPatch = components['schemas']['PushSettingsPatch'];

/**
 * Templates are Liquid over `{question, match, user}`; resolution adds
 * `result` (see push.delivery.ts for the fields).
 */
export const PUSH_SETTINGS_DEFAULTS: PushSettingsValues = deepFreeze({
  enabled: true,
  max_per_user_per_match: 20,
  issuance: {
    enabled: true,
    pivotal_only: false,
    min_seconds_remaining: 10,
    templates: {
      title_template: '{% if question.is_pivotal_moment %}Pivotal moment: {% endif %}{{ match.home_team }} vs {{ match.away_team }}',
      body_template: '{{ question.text }}',
    },
  },
  resolution: {
    enabled: true,
    only_answered: true,
    templates: {
      title_template: '{{ match.home_team }} vs {{ match.away_team }}',
      body_template:
        '{% if result.voided %}Voided: {{ question.text }}' +
        '{% elsif result.correct %}Correct! +{{ result.points }} points: {{ result.correct_choice.label }}' +
        '{% elsif result.answered %}Not this time: it was {{ result.correct_choice.label }}' +
        '{% else %}{{ question.text }} It was {{ result.correct_choice.label }}{% endif %}',
    },
  },
});

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const clone = <T>(v: T): T => structuredClone(v);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep merge: objects merge key by key, anything else replaces; undefined leaves the value. */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (!isObject(base) || !isObject(patch)) return (patch === undefined ? clone(base) : clone(patch)) as T;
  const out: Record<string, unknown> = clone(base) as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    out[k] = isObject(out[k]) && isObject(v) ? deepMerge(out[k], v) : clone(v);
  }
  return out as T;
}

const pick = <T>(value: unknown, fallback: T, ok: (v: unknown) => boolean): T => (ok(value) ? (value as T) : fallback);
const isBool = (v: unknown) => typeof v === 'boolean';
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const isText = (v: unknown) => typeof v === 'string' && v.length > 0;

/**
 * The stored JSON read through the defaults: known keys of the right type are
 * kept, anything missing or malformed falls back to its default (so a row
 * written before a new setting existed still reads as complete settings).
 */
export function normalizeSettings(raw: unknown): PushSettingsValues {
  const d = PUSH_SETTINGS_DEFAULTS;
  const r = isObject(raw) ? raw : {};
  const iss = isObject(r.issuance) ? r.issuance : {};
  const res = isObject(r.resolution) ? r.resolution : {};
  const issT = isObject(iss.templates) ? iss.templates : {};
  const resT = isObject(res.templates) ? res.templates : {};
  return {
    enabled: pick(r.enabled, d.enabled, isBool),
    max_per_user_per_match: pick(r.max_per_user_per_match, d.max_per_user_per_match, isCount),
    issuance: {
      enabled: pick(iss.enabled, d.issuance.enabled, isBool),
      pivotal_only: pick(iss.pivotal_only, d.issuance.pivotal_only, isBool),
      min_seconds_remaining: pick(iss.min_seconds_remaining, d.issuance.min_seconds_remaining, isCount),
      templates: {
        title_template: pick(issT.title_template, d.issuance.templates.title_template, isText),
        body_template: pick(issT.body_template, d.issuance.templates.body_template, isText),
      },
    },
    resolution: {
      enabled: pick(res.enabled, d.resolution.enabled, isBool),
      only_answered: pick(res.only_answered, d.resolution.only_answered, isBool),
      templates: {
        title_template: pick(resT.title_template, d.resolution.templates.title_template, isText),
        body_template: pick(resT.body_template, d.resolution.templates.body_template, isText),
      },
    },
  };
}

/** Field paths of every template, as the 400 detail names them. */
export function templateFields(s: PushSettingsValues): [field: string, source: string][] {
  return [
    ['issuance.templates.title_template', s.issuance.templates.title_template],
    ['issuance.templates.body_template', s.issuance.templates.body_template],
    ['resolution.templates.title_template', s.resolution.templates.title_template],
    ['resolution.templates.body_template', s.resolution.templates.body_template],
  ];
}

/** Compiles every template; throws TemplateError naming the first that does not compile. */
export function compileSettingsTemplates(s: PushSettingsValues): void {
  for (const [field, source] of templateFields(s)) compileTemplate(field, source);
}

export function settingsEqual(a: PushSettingsValues, b: PushSettingsValues): boolean {
  return JSON.stringify(normalizeSettings(a)) === JSON.stringify(normalizeSettings(b));
}

export { TemplateError };
