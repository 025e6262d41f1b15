/**
 * Brands: search, create and edit (multipart: name, colors, logo with a
 * preview, clear logo), delete; and a brand's question sponsorships: its
 * current slots, and assigning slots (or a random percent) to matches picked
 * from a UTC day.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { components } from '../../../../generated/api-types.js';
import { api, ApiError, formatDetail, operatorView, unwrap, uploadWithProgress } from '../api.js';
import {
  Badge,
  Checkbox,
  EditorActions,
  ErrorBox,
  Field,
  Loading,
  Notice,
  NumberInput,
  Page,
  Progress,
  Table,
  TextInput,
  fmtTime,
  useAction,
  useAsync,
} from '../components/common.js';
import { EditToggle, useInlineEditor } from '../components/catalog/inline-editor.js';
import { ConfirmButton, utcDayOf, utcDayRange } from '../components/controls.js';
import { LeagueSelect, useLeagues } from '../components/leagues.js';
import { Link, setQuery, useLocation } from '../router.js';

type Brand = components['schemas']['Brand'];
type Match = components['schemas']['OperatorMatch'];
type Slot = components['schemas']['QuestionSponsorship'];
type SlotInput = components['schemas']['QuestionSponsorshipSlotInput'];
type Strategy = components['schemas']['SponsorshipStrategy'];
type AssignmentResult = components['schemas']['QuestionSponsorshipAssignmentResult'];
type DefinitionSummary = components['schemas']['QuestionDefinitionSummary'];

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
/** `#rgb` or `#rrggbb` as `#rrggbb` for the color picker; null when not a color. */
const pickerValue = (c: string) => {
  const t = c.trim();
  if (!HEX.test(t)) return null;
  return t.length === 4 ? `#${t[1]}${t[1]}${t[2]}${t[2]}${t[3]}${t[3]}`.toLowerCase() : t.toLowerCase();
};

function ColorField({ label, value, onValue, optional }: { label: string; value: string; onValue: (v: string) => void; optional?: boolean }) {
  const picker = pickerValue(value);
  return (
    <Field label={label} hint={optional ? '#RGB or #RRGGBB; blank for none' : '#RGB or #RRGGBB'}>
      <span class="color-field">
        <input
          type="color"
          class={picker ? '' : 'unset'}
          aria-label={`${label} picker`}
          value={picker ?? '#ffffff'}
          onInput={(e) => onValue((e.target as HTMLInputElement).value)}
        />
        <TextInput class="mono" value={value} onValue={onValue} placeholder={optional ? 'none' : '#ff5500'} aria-label={label} />
      </span>
    </Field>
  );
}

function BrandSwatch({ name, primary, secondary, logo }: { name: string; primary: string; secondary: string; logo: string | null }) {
  const p = pickerValue(primary) ?? '#cccccc';
  const s = pickerValue(secondary);
  return (
    <div class="brand-swatch" aria-label="Color preview" style={{ background: p, borderColor: s ?? p }}>
      {logo ? <img src={logo} alt="" /> : null}
      <span style={{ color: s ?? '#fff' }}>{name || 'Brand name'}</span>
    </div>
  );
}

/** Sends the brand form as multipart with upload progress; the API's error as an ApiError. */
async function sendBrand(url: string, method: 'POST' | 'PATCH', form: FormData, onProgress: (f: number) => void): Promise<Brand> {
  const res = await uploadWithProgress(url, form, onProgress, method);
  if (res.status >= 200 && res.status < 300) return res.body as Brand;
  throw new ApiError(res.status, formatDetail(res.body, res.status), res.body);
}

function BrandForm({ brand, flash, onSaved, onClose }: { brand: Brand | null; flash: boolean; onSaved: (b: Brand) => void; onClose: () => void }) {
  const [name, setName] = useState(brand?.name ?? '');
  const [primary, setPrimary] = useState(brand?.primary_color ?? '#0b6e4f');
  const [secondary, setSecondary] = useState(brand?.secondary_color ?? '');
  const [logo, setLogo] = useState<File | null>(null);
  const [clearLogo, setClearLogo] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [saved, setSaved] = useState(flash);
  const logoPreview = useMemo(() => (logo ? URL.createObjectURL(logo) : null), [logo]);
  useEffect(() => () => void (logoPreview && URL.revokeObjectURL(logoPreview)), [logoPreview]);
  const save = useAction(async () => {
    setSaved(false);
    const form = new FormData();
    form.append('name', name);
    form.append('primary_color', primary);
    if (brand || secondary.trim()) form.append('secondary_color', secondary.trim());
    if (logo) form.append('logo', logo, logo.name);
    else if (brand && clearLogo) form.append('clear_logo', 'true');
    setProgress(0);
    try {
      const result = brand ? await sendBrand(`/api/brands/${brand.id}`, 'PATCH', form, setProgress) : await sendBrand('/api/brands', 'POST', form, setProgress);
      setSaved(true);
      setLogo(null);
      setClearLogo(false);
      onSaved(result);
    } finally {
      setProgress(null);
    }
  });
  const shownLogo = logoPreview ?? (clearLogo ? null : (brand?.logo_url ?? null));
  return (
    <form
      class="card brand-form"
      aria-label={brand ? `Edit brand ${brand.name}` : 'New brand'}
      onSubmit={(e) => {
        e.preventDefault();
        void save.act();
      }}
    >
      <h2>{brand ? `Edit "${brand.name}"` : 'New brand'}</h2>
      <div class="brand-form-grid">
        <div class="form-grid">
          <Field label="Name">
            <TextInput value={name} onValue={setName} required maxLength={120} />
          </Field>
          <ColorField label="Primary color" value={primary} onValue={setPrimary} />
          <ColorField label="Secondary color" value={secondary} onValue={setSecondary} optional />
          <Field label="Logo" hint="PNG, JPEG, GIF or WebP, at most 2 MiB; stored in the logo bucket">
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              onChange={(e) => {
                setLogo((e.target as HTMLInputElement).files?.[0] ?? null);
                setClearLogo(false);
              }}
            />
          </Field>
          {brand?.logo_filename ? (
            <div class="field">
              <span class="field-label">Current logo</span>
              <span>
                <code>{brand.logo_filename}</code>
              </span>
              <Checkbox
                checked={clearLogo}
                onValue={(v) => {
                  setClearLogo(v);
                  if (v) setLogo(null);
                }}
                label="Clear logo"
              />
            </div>
          ) : null}
        </div>
        <div class="brand-preview">
          <span class="field-label">Preview</span>
          <BrandSwatch name={name} primary={primary} secondary={secondary} logo={shownLogo} />
          {logo ? (
            <small class="hint">
              New logo: {logo.name} ({Math.ceil(logo.size / 1024)} KiB)
            </small>
          ) : null}
        </div>
      </div>
      {progress !== null ? (
        <Progress value={logo && progress < 1 ? progress : null} label={logo && progress < 1 ? `Uploading ${Math.round(progress * 100)}%` : 'Saving...'} />
      ) : null}
      <EditorActions busy={save.busy} saveLabel={brand ? 'Save brand' : 'Create brand'} saved={saved ? 'Saved.' : null} error={save.error}>
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </EditorActions>
    </form>
  );
}

const EDITABLE = new Set(['scheduled', 'postponed']);
const matchName = (m: Pick<Match, 'home_team' | 'away_team'>) => `${m.home_team} - ${m.away_team}`;

/** A match's teams, marked when it is a test match (a replayed clone, not a real fixture). */
function MatchName({ match }: { match: Pick<Match, 'home_team' | 'away_team' | 'is_test'> }) {
  return (
    <>
      {matchName(match)}
      {match.is_test ? (
        <>
          {' '}
          <Badge>test</Badge>
        </>
      ) : null}
    </>
  );
}
const targetText = (s: Pick<Slot, 'strategy' | 'target'>) =>
  s.target === null || s.target === undefined ? '' : s.strategy === 'definition' ? String(s.target).slice(0, 8) : String(s.target);

interface SlotRow {
  strategy: Strategy;
  target: string;
  best_effort: boolean;
}

const STRATEGIES: { value: Strategy; label: string }[] = [
  { value: 'question_number', label: 'Question number' },
  { value: 'period', label: 'Period' },
  { value: 'next_available', label: 'Next available' },
  { value: 'definition', label: 'Definition' },
];

function slotInput(row: SlotRow): SlotInput {
  if (row.strategy === 'next_available') return { strategy: row.strategy, best_effort: row.best_effort };
  if (row.strategy === 'question_number') {
    const n = Number(row.target);
    return { strategy: row.strategy, target: row.target.trim() !== '' && Number.isInteger(n) ? n : row.target, best_effort: row.best_effort };
  }
  return { strategy: row.strategy, target: row.target, best_effort: row.best_effort };
}

function SlotTarget({
  row,
  index,
  onValue,
  periods,
  definitions,
}: {
  row: SlotRow;
  index: number;
  onValue: (v: string) => void;
  periods: string[] | null;
  definitions: DefinitionSummary[] | null;
}) {
  const label = `Slot ${index + 1} target`;
  if (row.strategy === 'next_available') return <span class="muted">no target</span>;
  if (row.strategy === 'question_number')
    return <input type="number" min={1} aria-label={label} value={row.target} onInput={(e) => onValue((e.target as HTMLInputElement).value)} placeholder="1" />;
  if (row.strategy === 'period' && periods) {
    return (
      <select aria-label={label} value={row.target} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
        <option value="">(choose a period)</option>
        {periods.map((p) => (
          <option value={p}>{p}</option>
        ))}
      </select>
    );
  }
  if (row.strategy === 'definition' && definitions) {
    return (
      <select aria-label={label} value={row.target} onChange={(e) => onValue((e.target as HTMLSelectElement).value)}>
        <option value="">(choose a definition)</option>
        {definitions.map((d) => (
          <option value={d.id}>{d.name}</option>
        ))}
      </select>
    );
  }
  return (
    <input
      class="mono"
      aria-label={label}
      value={row.target}
      onInput={(e) => onValue((e.target as HTMLInputElement).value)}
      placeholder={row.strategy === 'period' ? 'period key, e.g. 2' : 'definition id'}
    />
  );
}

function SponsorshipPanel({ brand, onClose }: { brand: Brand; onClose: () => void }) {
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

  const setRow = (i: number, patch: Partial<SlotRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
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
      <div class="current-slots" role="group" aria-label="Current slots">
        <Table<Slot>
          rows={slots.data ?? []}
          rowKey={(s) => s.id}
          empty="This brand has no question sponsorship slots."
          columns={[
            {
              label: 'Match',
              cell: (s) => {
                const m = knownMatches.get(s.match_id);
                return <Link href={`/admin/matches/${s.match_id}`}>{m ? <MatchName match={m} /> : `match ${s.match_id.slice(0, 8)}`}</Link>;
              },
            },
            { label: 'Kick-off', cell: (s) => fmtTime(knownMatches.get(s.match_id)?.scheduled) },
            { label: 'Strategy', cell: (s) => s.strategy },
            { label: 'Target', cell: (s) => <span title={s.target === null ? '' : String(s.target)}>{targetText(s) || '-'}</span> },
            { label: 'Best effort', cell: (s) => (s.strategy === 'period' ? (s.best_effort ? 'yes' : 'no') : '-') },
            { label: 'Stamped', cell: (s) => (s.question_issuance_id ? <Badge tone="good">{fmtTime(s.stamped_at)}</Badge> : <Badge>pending</Badge>) },
          ]}
        />
      </div>

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
        {matches.data?.length ? (
          <ul class="match-picks" aria-label="Matches">
            {matches.data.map((m) => {
              const ok = EDITABLE.has(m.status);
              return (
                <li class={ok ? '' : 'disabled'}>
                  <label class="check">
                    <input
                      type="checkbox"
                      disabled={!ok && !selected.includes(m.id)}
                      checked={selected.includes(m.id)}
                      onChange={(e) => toggle(m.id, (e.target as HTMLInputElement).checked)}
                    />
                    <span>
                      <MatchName match={m} />{' '}
                      <small>
                        ({m.league}, {fmtTime(m.scheduled)})
                      </small>
                    </span>
                  </label>
                  <span class="badges">
                    <Badge tone={ok ? 'neutral' : 'warn'}>{m.status}</Badge>
                    <small class="hint">
                      {m.sponsored_question_count}/{m.question_max_count} sponsored
                    </small>
                  </span>
                </li>
              );
            })}
          </ul>
        ) : null}
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
            <>
              {rows.map((r, i) => (
                <div class="row slot-row">
                  <select
                    aria-label={`Slot ${i + 1} strategy`}
                    value={r.strategy}
                    onChange={(e) => setRow(i, { strategy: (e.target as HTMLSelectElement).value as Strategy, target: '' })}
                  >
                    {STRATEGIES.map((s) => (
                      <option value={s.value}>{s.label}</option>
                    ))}
                  </select>
                  <SlotTarget row={r} index={i} onValue={(v) => setRow(i, { target: v })} periods={periods} definitions={definitions.data ?? null} />
                  {r.strategy === 'period' ? <Checkbox checked={r.best_effort} onValue={(v) => setRow(i, { best_effort: v })} label="Best effort" /> : <span />}
                  <button type="button" class="secondary small" aria-label={`Remove slot ${i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </div>
              ))}
              <div>
                <button type="button" class="secondary small" onClick={() => setRows([...rows, { strategy: 'next_available', target: '', best_effort: true }])}>
                  Add slot
                </button>
                {!rows.length ? <small class="hint"> No slots: with "replace" on, this clears the brand's slots on the chosen matches.</small> : null}
              </div>
            </>
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
      {result ? (
        <div class="assign-result" aria-label="Assignment result">
          <Notice>Assigned: {result.matches.length} match(es) updated.</Notice>
          <Table
            rows={result.matches}
            rowKey={(r) => r.match_id}
            columns={[
              { label: 'Match', cell: (r) => (knownMatches.get(r.match_id) ? <MatchName match={knownMatches.get(r.match_id)!} /> : r.match_id.slice(0, 8)) },
              { label: 'Removed', cell: (r) => r.removed_count, class: 'num' },
              { label: 'Created', cell: (r) => r.created_count, class: 'num' },
              {
                label: "Brand's slots now",
                cell: (r) =>
                  r.slots.length ? (
                    <span class="badges">
                      {r.slots.map((s) => (
                        <Badge>{`${s.strategy}${targetText(s) ? ` ${targetText(s)}` : ''}`}</Badge>
                      ))}
                    </span>
                  ) : (
                    'none'
                  ),
              },
            ]}
          />
        </div>
      ) : null}
    </section>
  );
}

export function BrandsPage() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const sponsor = query.get('sponsorships') ?? '';
  const editor = useInlineEditor();
  const brands = useAsync(() => unwrap(() => api.GET('/api/brands', { params: { query: q ? { q } : {} } })), [q]);
  const remove = useAction(async (b: Brand) => {
    editor.setNotice(null);
    await unwrap(() => api.DELETE('/api/brands/{brand_id}', { params: { path: { brand_id: b.id } } }));
    editor.closeIf(b.id);
    if (sponsor === b.id) setQuery({ sponsorships: undefined });
    editor.setNotice(`Deleted brand "${b.name}".`);
    brands.reload();
  });
  const current = editor.openOf(brands.data);
  const sponsoring = (brands.data ?? []).find((b) => b.id === sponsor);
  return (
    <Page
      title="Brands"
      actions={
        <button type="button" onClick={editor.openNew}>
          New brand
        </button>
      }
    >
      <div class="filters">
        <Field label="Search (name, color, logo file or id)">
          <TextInput type="search" value={q} onValue={(v) => setQuery({ q: v })} />
        </Field>
      </div>
      {current !== undefined ? (
        <BrandForm
          key={editor.editing}
          brand={current}
          flash={editor.flash}
          onSaved={(b) => {
            brands.reload();
            editor.saved(b.id);
          }}
          onClose={editor.close}
        />
      ) : null}
      {sponsoring ? <SponsorshipPanel key={sponsoring.id} brand={sponsoring} onClose={() => setQuery({ sponsorships: undefined })} /> : null}
      {sponsor && brands.data && !sponsoring && !q ? <ErrorBox error={new Error(`brand ${sponsor} not found`)} /> : null}
      {editor.notice ? <Notice>{editor.notice}</Notice> : null}
      <ErrorBox error={brands.error ?? remove.error} />
      <Loading when={brands.loading && !brands.data} />
      <Table<Brand>
        rows={brands.data ?? []}
        rowKey={(b) => b.id}
        empty={q ? 'No brand matches this search.' : 'No brands yet.'}
        columns={[
          {
            label: '',
            cell: (b) => (
              <span class="swatches" aria-hidden="true">
                <span style={{ background: b.primary_color }} />
                {b.secondary_color ? <span style={{ background: b.secondary_color }} /> : null}
              </span>
            ),
          },
          { label: 'Name', cell: (b) => b.name },
          { label: 'Colors', cell: (b) => <code>{[b.primary_color, b.secondary_color].filter(Boolean).join(' / ')}</code> },
          {
            label: 'Logo',
            cell: (b) =>
              b.logo_url ? <img class="logo-thumb" src={b.logo_url} alt={`${b.name} logo`} title={b.logo_filename ?? ''} /> : <span class="muted">none</span>,
          },
          { label: 'Updated', cell: (b) => fmtTime(b.updated_at) },
          {
            label: '',
            class: 'row-actions-cell',
            cell: (b) => (
              <div class="row-actions">
                <EditToggle editor={editor} id={b.id} />
                <button type="button" class="secondary small" onClick={() => setQuery({ sponsorships: sponsor === b.id ? undefined : b.id })}>
                  Sponsorships
                </button>
                <ConfirmButton small label="Delete" question={`Delete brand "${b.name}"?`} busy={remove.busy} onConfirm={() => void remove.act(b)} />
              </div>
            ),
          },
        ]}
      />
    </Page>
  );
}
