/**
 * A brand's question sponsorships: its current slots, and assigning slots (or
 * a random percent) to matches picked from a UTC day.
 */
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../../../generated/api-types.js';
import { api, operatorView, unwrap } from '../../api.js';
import { Checkbox, ErrorBox, Field, Loading, NumberInput, Progress, useAction, useAsync } from '../common.js';
import { utcDayOf, utcDayRange } from '../controls.js';
import { LeagueSelect, useLeagues } from '../leagues.js';
import { SlotRows, slotInput, type SlotRow } from './slot-rows.js';
import { EDITABLE, type Match } from './sponsorship-shared.js';
import { AssignmentResultView, CurrentSlots, MatchPicks } from './sponsorship-views.js';

type Brand = components['schemas']['Brand'];
type AssignmentResult = components['schemas']['QuestionSponsorshipAssignmentResult'];

export function SponsorshipPanel({ brand, onClose }: { brand: Brand; onClose: () => void }) {
  const leagues = useLeagues();
  const [day, setDay] = useState(() => utcDayOf());
  const [league, setLeague] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [mode, setMode] = useState<'slots' | 'random'>('slots');
  const [rows, setRows] = useState<SlotRow[]>([{ strategy: 'question_number', target: '1', best_effort: true }]);
  const [percent, setPercent] = useState<number | null>(50);
  const [replace, setReplace] = useState(true);
  const [result, setResult] = useState<AssignmentResult | null>(null);

  const range = utcDayRange(day);
  const matches = useAsync(
    async () =>
      (
        await unwrap(() =>
          api.GET('/api/matches', { params: { query: { scheduled_from: range.from, scheduled_to: range.to, ...(league ? { league } : {}) } } }),
        )
      ).map(operatorView),
    [day, league],
  );
  const slots = useAsync(() => unwrap(() => api.GET('/api/brands/{brand_id}/question-sponsorships', { params: { path: { brand_id: brand.id } } })), [brand.id]);

  // Matches are named from the day lists seen so far (no read per selected match).
  const [seen, setSeen] = useState<Map<string, Match>>(() => new Map());
  useEffect(() => {
    if (matches.data?.length) setSeen((old) => new Map([...old, ...matches.data!.map((m) => [m.id, m] as const)]));
  }, [matches.data]);
  const knownMatches = seen;
  const selectedLeagues = [...new Set(selected.map((id) => knownMatches.get(id)?.league).filter((l): l is string => !!l))];
  const targetLeague = league || (selectedLeagues.length === 1 ? selectedLeagues[0]! : '');
  const periods = targetLeague ? (leagues.find((l) => l.slug === targetLeague)?.periods ?? null) : null;
  const definitions = useAsync(
    () => (targetLeague ? unwrap(() => api.GET('/api/question-definitions', { params: { query: { league: targetLeague } } })) : Promise.resolve(null)),
    [targetLeague],
  );

  const assign = useAction(async () => {
    setResult(null);
    const body = {
      match_ids: selected,
      replace_existing_for_brand: replace,
      ...(mode === 'random' ? { random_percent: percent ?? 0 } : { slots: rows.map(slotInput) }),
    } as components['schemas']['QuestionSponsorshipAssignment'];
    const out = await unwrap(() => api.POST('/api/brands/{brand_id}/question-sponsorships', { params: { path: { brand_id: brand.id } }, body }));
    setResult(out);
    slots.reload();
    matches.reload();
  });

  const editable = (matches.data ?? []).filter((m) => EDITABLE.has(m.status));
  const toggle = (id: string, on: boolean) => setSelected(on ? [...selected, id] : selected.filter((s) => s !== id));

  return (
    <section class="card sponsorships" aria-label={`Question sponsorships of ${brand.name}`}>
      <div class="csv-import-head">
        <h2>Question sponsorships of "{brand.name}"</h2>
        <button type="button" class="link" onClick={onClose}>
          Close
        </button>
      </div>

      <h3>Current slots</h3>
      <ErrorBox error={slots.error} />
      <Loading when={slots.loading && !slots.data} />
      <CurrentSlots slots={slots.data ?? []} knownMatches={knownMatches} />

      <form
        class="assign-form"
        aria-label="Assign sponsorship slots"
        onSubmit={(e) => {
          e.preventDefault();
          void assign.act();
        }}
      >
        <h3>Assign to matches</h3>
        <div class="filters">
          <Field label="Day (UTC)">
            <input type="date" value={day} onInput={(e) => setDay((e.target as HTMLInputElement).value)} />
          </Field>
          <Field label="League">
            <LeagueSelect allowAll value={league} onValue={setLeague} />
          </Field>
          <button
            type="button"
            class="secondary small"
            disabled={!editable.length}
            onClick={() => setSelected([...new Set([...selected, ...editable.map((m) => m.id)])])}
          >
            Select all editable
          </button>
          <button type="button" class="secondary small" disabled={!selected.length} onClick={() => setSelected([])}>
            Clear selection ({selected.length})
          </button>
        </div>
        <ErrorBox error={matches.error} />
        <Loading when={matches.loading && !matches.data} />
        {matches.data && !matches.data.length ? <p class="empty">No matches on this day.</p> : null}
        {matches.data?.length ? <MatchPicks matches={matches.data} selected={selected} toggle={toggle} /> : null}
        {matches.data?.some((m) => !EDITABLE.has(m.status)) ? <small class="hint">Only scheduled and postponed matches take sponsorship changes.</small> : null}

        <fieldset class="rows">
          <legend>What to place</legend>
          <div class="mode">
            <label class="check">
              <input type="radio" name="mode" checked={mode === 'slots'} onChange={() => setMode('slots')} /> Slots
            </label>
            <label class="check">
              <input type="radio" name="mode" checked={mode === 'random'} onChange={() => setMode('random')} /> Random percent of each match's questions
            </label>
          </div>
          {mode === 'slots' ? (
            <SlotRows rows={rows} setRows={setRows} periods={periods} definitions={definitions.data ?? null} />
          ) : (
            <Field label="Percent (1 to 100)" hint="Each match gets round(question cap x percent / 100) slots on random free question numbers">
              <NumberInput class="percent" value={percent} min={1} max={100} onValue={setPercent} />
            </Field>
          )}
          <Checkbox checked={replace} onValue={setReplace} label="Replace this brand's existing slots on these matches" />
        </fieldset>
        <div class="form-actions">
          <button type="submit" disabled={assign.busy || !selected.length}>
            {assign.busy ? 'Assigning...' : `Assign to ${selected.length} match${selected.length === 1 ? '' : 'es'}`}
          </button>
        </div>
        {assign.busy ? <Progress value={null} label="Assigning..." /> : null}
        <ErrorBox error={assign.error} />
      </form>
      {result ? <AssignmentResultView result={result} knownMatches={knownMatches} /> : null}
    </section>
  );
}
