/**
 * What evaluating definitions costs: a normal definition's trigger
 * condition, issuance extract and question text (the engine's hot path: one
 * evaluation per trigger candidate per event), and how long hostile
 * expressions and templates hold the event loop. `npm run bench:expressions`.
 */
import { conditionHolds, extractIssuanceState, renderQuestion } from '../src/domain/question-render.js';
import { evaluateExpression } from '../src/domain/language/expressions.js';
import { renderTemplate } from '../src/domain/language/templates.js';
import { installSandbox } from '../src/runtime/sandbox/sandbox.js';

const event = {
  match: 'm1',
  provider_event_id: 'e-42',
  seq: 42,
  operation: 'create',
  type: 'corner',
  period: '2',
  clock_seconds: 3125,
  occurred_at: '2026-06-14T19:52:07Z',
  team: 'home',
  score: { home: 1, away: 0 },
  final: true,
  data: { player: 'Messi', side: 'left' },
};
const input = {
  event,
  state: { goals: 1, corners: 7 },
  match: { id: 'm1', league: 'wc', home_team: 'Brazil', away_team: 'Serbia', status: 'live', period: '2', clock_seconds: 3125, score: { home: 1, away: 0 } },
} as never;
const question = {
  question_text_template:
    'Corner for {% if event.team == "home" %}{{ match.home_team }}{% else %}{{ match.away_team }}{% endif %} ({{ extract.minute }}\'). A shot within 5 minutes?',
  choices: [
    { identifier: 'yes', label_template: 'Yes' },
    { identifier: 'no', label_template: 'No' },
  ],
};

// What outgrows this thread's tier runs in the sandbox's worker threads, as in the service.
installSandbox();

async function perCall(what: string, n: number, fn: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 200; i++) await fn();
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  const us = Number(process.hrtime.bigint() - started) / 1000 / n;
  console.log(`${what.padEnd(58)} ${us.toFixed(1).padStart(8)} µs per call`);
}

/** Wall time of one call and the longest the event loop waited meanwhile (the longest gap between ticks of a 1 ms timer). */
async function hostile(what: string, fn: () => Promise<unknown>): Promise<void> {
  let last = performance.now();
  let held = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  let outcome: string;
  try {
    await fn();
    outcome = 'completed';
  } catch (err) {
    outcome = (err as Error).message.slice(0, 70);
  }
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(timer);
  console.log(`${what.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms, event loop held up to ${held.toFixed(0).padStart(5)} ms: ${outcome}`);
}

console.log("Normal definition (the demo catalog's corner question):");
await perCall('trigger condition (event.team = "home" or ...)', 20_000, () =>
  conditionHolds('trigger.condition', 'event.team = "home" or event.team = "away"', input),
);
await perCall('issuance extract (team, minute)', 20_000, () =>
  extractIssuanceState({ team: 'event.team', minute: '$floor(event.clock_seconds / 60) + 1' }, input),
);
await perCall('question text and 2 choice labels', 20_000, () => renderQuestion(question, { ...(input as object), extract: { team: 'home', minute: 53 } }));
await perCall('resolution rule (event.team = issuance.state.team)', 20_000, () =>
  evaluateExpression('resolution.rules[0].condition', 'event.team = issuance.state.team', { ...(input as object), issuance: { state: { team: 'home' } } }),
);

console.log('\nHostile input:');
await hostile('$count($distinct([1..100000]))', () => evaluateExpression('x', '$count($distinct([1..100000]))', {}));
await hostile('$count($distinct([1..20000]))', () => evaluateExpression('x', '$count($distinct([1..20000]))', {}));
await hostile('$sort([1..100000], function($a,$b){$a<$b})', () => evaluateExpression('x', '$count($sort([1..100000], function($a, $b) { $a < $b }))', {}));
await hostile('{"k": [1..50000]} grouped into one key', () => evaluateExpression('x', '$count($each([1..50000]{"k": $}, function($v){$v}))', {}));
await hostile('$pad("", 100000000)', () => evaluateExpression('x', '$length($pad("", 100000000))', {}));
await hostile('$string of shared structure (2^20)', () =>
  evaluateExpression(
    'x',
    '($a := [1,2]; $b := [$a,$a]; $c := [$b,$b]; $d := [$c,$c]; $e := [$d,$d]; $f := [$e,$e]; $g := {"a": $f, "b": $f}; $h := {"a": $g, "b": $g}; $i := {"a": $h, "b": $h}; $j := {"a": $i, "b": $i}; $k := {"a": $j, "b": $j}; $l := {"a": $k, "b": $k}; $m := {"a": $l, "b": $l}; $n := {"a": $m, "b": $m}; $o := {"a": $n, "b": $n}; $p := {"a": $o, "b": $o}; $length($string($p)))',
    {},
  ),
);
await hostile('/.*.*.*.*.*x/ on 5,000 characters', () => evaluateExpression('x', '$contains($pad("", 5000, "a"), /.*.*.*.*.*x/)', {}));
await hostile('liquid: nested loops 1000 x 1000', () => renderTemplate('t', '{% for i in (1..1000) %}{% for j in (1..1000) %}{% endfor %}{% endfor %}x', {}));
await hostile('liquid: (1..1000000) | join', () => renderTemplate('t', '{% assign a = (1..1000000) | join: "," %}{{ a | size }}', {}));
