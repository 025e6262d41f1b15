import { describe, expect, it } from 'vitest';
import { compileExpression, DEFAULT_BUDGET, evaluateExpression, evaluateMap, ExpressionError, isTruthy } from '../../src/domain/language/expressions.js';
import { findUnsafeRegexLiteral, MAX_REGEX_SUBJECT, SafeRegExp, unsafeRegexReason } from '../../src/domain/language/safe-regex.js';
import { conditionHolds } from '../../src/domain/question-render.js';
import { compileTemplate, renderTemplate, TemplateError } from '../../src/domain/language/templates.js';

const input = {
  event: { type: 'shot', team: 'home', clock_seconds: 3127, score: { home: 1, away: 0 }, data: { outcome: 'goal', player: 'Player 9' } },
  state: { shots: 3 },
  match: { home_team: 'Brazil', away_team: 'Serbia' },
};

/** Runs fn and returns the error it throws and how long it took. */
async function failure(fn: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await fn();
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
  throw new Error('expected a failure');
}

describe('expressions (JSONata)', () => {
  it('evaluate against {event, state, match} and return JSON values', async () => {
    expect(await evaluateExpression('x', '$floor(event.clock_seconds / 60) + 1', input)).toBe(53);
    expect(await evaluateExpression('x', 'event.score', input)).toEqual({ home: 1, away: 0 });
    expect(await evaluateExpression('x', 'state.shots + 1', input)).toBe(4);
    expect(await evaluateExpression('x', 'event.data.missing', input)).toBeUndefined();
    expect(await evaluateExpression('x', '$match(event.data.player, /Player (\\d+)/).groups[0]', input)).toBe('9');
    expect(await evaluateMap('issuance_state_extract', { team: 'event.team', none: 'event.nothing' }, input)).toEqual({ team: 'home', none: null });
    expect(isTruthy([])).toBe(false);
    expect(isTruthy([0, 'x'])).toBe(true);
    // Conditions use the same truthiness, into nested arrays too.
    expect(await conditionHolds('trigger.condition', '[[0, ""], [false]]', input)).toBe(false);
    expect(await conditionHolds('trigger.condition', '[[0], [state.shots]]', input)).toBe(true);
    expect(await conditionHolds('trigger.condition', '  ', input)).toBe(true);
  });

  it('name the field on a syntax error and on a run-time error', async () => {
    expect(() => compileExpression('trigger.condition', 'event.team = ')).toThrow(ExpressionError);
    expect(() => compileExpression('trigger.condition', 'event.team = ')).toThrow(/^trigger\.condition: does not compile/);
    await expect(evaluateExpression('store_state.x', 'event.clock_seconds + event.data.player', input)).rejects.toThrow(/^store_state\.x: failed/);
    await expect(evaluateExpression('x', '$number("abc")', input)).rejects.toThrow(ExpressionError);
  });

  it.each([
    ['infinite recursion', '($f := function($x){ $f($x) }; $f(1))'],
    ['unbounded tail recursion', '($f := function($x){ $f($x + 1) }; $f(0))'],
    ['deep recursion', '($f := function($x){ $x > 0 ? 1 + $f($x - 1) : 0 }; $f(1000000))'],
    ['a huge map', '$map([1..1000000], function($v){ $v * 2 })'],
    ['a huge range', '$sum([1..9999999])'],
    ['a huge nested loop', '[1..3000].([1..3000].($ * 2))'],
    ['a loop over a huge filter', '$count([1..5000000][$ % 2 = 0])'],
    ['a string that doubles', '$reduce([1..40], function($a, $b){ $a & $a }, "x")'],
    ['a huge pad', '$pad("x", 100000000)'],
    ['a sort with a slow comparator', '$sort([1..50000], function($a, $b){ $a < $b })'],
  ])('stop %s quickly with an ExpressionError', async (_label, source) => {
    const { error, ms } = await failure(() => evaluateExpression('issuance_state_extract.x', source, input));
    expect(error).toBeInstanceOf(ExpressionError);
    expect((error as ExpressionError).field).toBe('issuance_state_extract.x');
    expect(ms).toBeLessThan(2000);
  });

  it('refuse regular expressions that backtrack catastrophically, even through $eval', async () => {
    const evil = '"' + 'a'.repeat(40) + '!"';
    for (const regex of ['/(a+)+$/', '/(a|aa)+$/', '/([a-z]*)*x/', '/(\\w+\\s?)+$/', '/(a+){2,}$/']) {
      const { error, ms } = await failure(() => evaluateExpression('trigger.condition', `$contains(${evil}, ${regex})`, input));
      expect(error, regex).toBeInstanceOf(ExpressionError);
      expect((error as Error).message).toMatch(/refused/);
      expect(ms).toBeLessThan(1000);
    }
    const viaEval = await failure(() => evaluateExpression('x', `$eval('$contains(${evil}, /(a+)+$/)')`, input));
    expect((viaEval.error as Error).message).toMatch(/refused/);
    await expect(evaluateExpression('x', '$contains($pad("", 20000, "a"), /a$/)', input)).rejects.toThrow(`at most ${MAX_REGEX_SUBJECT} characters`);
  });

  it('take what the issue showed stalling the process (a quadratic built-in) in linear time, with the right answer', async () => {
    // A wall-clock budget of 10 s instead of 250 ms: on a loaded machine the sandbox thread may wait for a core, and this
    // asks for the answer, not the deadline. Quadratic, 100,000 elements would still take minutes and fail.
    const budget = { ...DEFAULT_BUDGET, timeoutMs: 10_000 };
    expect(await evaluateExpression('x', '$count($distinct([1..100000]))', input, budget)).toBe(100000);
    expect(await evaluateExpression('x', '$count($distinct([1..10000].($ % 7)))', input, budget)).toBe(7);
    expect(await evaluateExpression('x', '$sort([1..50000])[49999]', input, budget)).toBe(50000);
    expect(await evaluateExpression('x', '$distinct([{"a": 1, "b": [2]}, {"b": [2], "a": 1}, [1], [1], "1", 1])', input, budget)).toEqual([
      { a: 1, b: [2] },
      [1],
      '1',
      1,
    ]);
    expect(
      await evaluateExpression('x', '$sort([{"k": 2, "i": 0}, {"k": 1, "i": 1}, {"k": 2, "i": 2}], function($a, $b) { $a.k > $b.k }).i', input, budget),
    ).toEqual([1, 0, 2]);
  });

  it('stop a step nothing inside it can interrupt (polynomial backtracking) at the deadline, while the event loop goes on', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const { error } = await failure(() => evaluateExpression('trigger.condition', '$contains($pad("", 5000, "a"), /.*.*.*.*.*x/)', input));
      expect((error as Error).message).toBe('trigger.condition: failed: expression ran longer than 250 ms');
      // The evaluation ran in the sandbox: this thread kept turning meanwhile.
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
    }
    // The sandbox was replaced: the next costly evaluation works.
    expect(await evaluateExpression('x', '$contains("GOAL", /goal/i)', input)).toBe(true);
  });

  it('refuse values that grow by sharing (each doubling a reference) before they are written out', async () => {
    const doubling = `($a := [event]; ${Array.from({ length: 24 }, () => `$a := [$a, $a]`).join('; ')}; $string($a))`;
    await expect(evaluateExpression('x', doubling, input)).rejects.toThrow(/expression built a (value|text) larger|longer than/);
  });

  it('keep ordinary regular expressions working', async () => {
    expect(await evaluateExpression('x', '$contains("GOAL by Player 9", /goal/i)', input)).toBe(true);
    expect(await evaluateExpression('x', '$replace("a,b;c", /[,;]/, " ")', input)).toBe('a b c');
    expect(await evaluateExpression('x', '$split("45+2", /\\+/)', input)).toEqual(['45', '2']);
    expect(await evaluateExpression('x', '$match("ON TARGET-GOAL", /^(ON|OFF) TARGET(-(GOAL|SAVED))?$/).groups[2]', input)).toBe('GOAL');
    for (const ok of ['^\\d{1,3}$', '(?:home|away)', '(\\d+)-(\\d+)', '\\p{L}+', '(ab)+', "(?<minute>\\d+)'"]) expect(unsafeRegexReason(ok), ok).toBeNull();
    // Conservative: a repeated group may not contain a quantifier even when its first character would disambiguate.
    for (const bad of ['[a-z]+(?:_[a-z]+)*', '(a*)*', '(a|b)+', '(.+)\\1', '(?<x>a)\\k<x>', 'a(?=b)', '(?<!a)b', '((ab)+c)+'])
      expect(unsafeRegexReason(bad), bad).not.toBeNull();
    expect(() => new SafeRegExp(/(x+)+y/)).toThrow(/refused/);
    expect(findUnsafeRegexLiteral({ a: [{ value: /(x+)+/ }] })).toMatch(/refused/);
  });

  it('do not leak prototypes or globals', async () => {
    for (const source of ['event.constructor', 'event.__proto__', '$string(event.constructor)', 'event.constructor.constructor("return process")()']) {
      const value = await evaluateExpression('x', source, input).catch((err: unknown) => err);
      expect(value === undefined || value instanceof ExpressionError, source).toBe(true);
    }
  });
});

describe('templates (Liquid)', () => {
  it('render {event, state, match, extract} with whitespace collapsed', async () => {
    const text = await renderTemplate(
      'question_text_template',
      "{{ match.home_team }}  {{ event.score.home }}-{{ event.score.away }}\n{{ match.away_team }}. {{ extract.minute | plus: 1 }}'",
      { ...input, extract: { minute: 52 } },
    );
    expect(text).toBe("Brazil 1-0 Serbia. 53'");
  });

  it.each([
    ['a broken tag', '{% if %}x{% endif %}', /does not parse/],
    ['an unknown filter', '{{ event.type | shout }}', /does not parse/],
    ['an unclosed output', '{{ event.type', /does not parse/],
    ['an unknown tag', '{% exec "ls" %}', /does not parse/],
  ])('name the field for %s', async (_label, source, message) => {
    expect(() => compileTemplate('choices[1].label_template', source)).toThrow(TemplateError);
    await expect(renderTemplate('choices[1].label_template', source, input)).rejects.toThrow(message);
    await expect(renderTemplate('choices[1].label_template', source, input)).rejects.toThrow(/^choices\[1\]\.label_template: /);
  });

  it.each([
    ["{% include '/etc/passwd' %}"],
    ["{% include '../../../../../../etc/passwd' %}"],
    ["{% render '/etc/hostname' %}"],
    ["{% layout '/etc/passwd' %}x"],
    ["{% include 'package.json' %}"],
  ])('cannot read files: %s fails', async (source) => {
    const err = await renderTemplate('question_text_template', source, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemplateError);
    expect((err as Error).message).not.toMatch(/root:|"name"/);
  });

  it('do not expose prototypes', async () => {
    const text = await renderTemplate(
      't',
      'x{{ event.constructor }}|{{ event.__proto__ }}|{{ event.constructor.name }}|{{ event.toString }}|{{ event.data.hasOwnProperty }}|{{ match.constructor.constructor }}y',
      input,
    );
    expect(text).toBe('x|||||y');
  });

  it('stop runaway loops and huge outputs', async () => {
    for (const source of [
      '{% for i in (1..100000000) %}{% endfor %}x',
      '{% for i in (1..10000) %}{% for j in (1..10000) %}{% endfor %}{% endfor %}x',
      '{% for i in (1..100000) %}aaaaaaaaaa{% endfor %}',
    ]) {
      const { error, ms } = await failure(() => renderTemplate('t', source, input));
      expect(error, source).toBeInstanceOf(TemplateError);
      expect(ms).toBeLessThan(2000);
    }
    await expect(renderTemplate('t', '{% for i in (1..300) %}abcdefghij{% endfor %}', input)).rejects.toThrow(/more than 2000 characters/);
  });

  it('render what the in-process limits cannot in the sandbox, and stop what the full limits cannot', async () => {
    const long = '{% for i in (1..3000) %}{% if i == 3000 %}done{% endif %}{% endfor %}';
    expect(await renderTemplate('t', long, input)).toBe('done');
    await expect(renderTemplate('t', '{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}x', input)).rejects.toThrow(
      /^t: failed to render: (template render|memory alloc) limit exceeded/,
    );
    // A filter whose output grows as the product of its inputs.
    const big = { ...input, event: { ...input.event, data: { s: 'a'.repeat(40_000) } } };
    await expect(renderTemplate('t', '{{ event.data.s | replace: "a", event.data.s | size }}', big)).rejects.toThrow(TemplateError);
  });

  it('refuse a text that renders empty', async () => {
    await expect(renderTemplate('question_text_template', '{% if event.team == "away" %}Away?{% endif %}  \n ', input)).rejects.toThrow(
      /rendered to an empty text/,
    );
  });
});
