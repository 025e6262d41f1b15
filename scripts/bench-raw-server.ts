/**
 * The raw anchor server of npm run bench (started by scripts/bench-raw.ts,
 * never by hand): node:http and postgres.js, nothing else. For each endpoint
 * it runs the statements captured from the service (RAW_PLANS, a JSON file of
 * RawPlan), binding each parameter from its recorded source, keeping in
 * process what the service keeps (the rows of a kept statement by its
 * parameters; the serialized league list), with the checks
 * the service makes (a missing or unknown key is 401; an answer to an unknown
 * question 404, to a closed one 409, with a choice it does not offer 400, on
 * a match the caller does not follow 403) and a response of the same shape.
 *
 * postgres.js runs with its defaults (named prepared statements): the anchor
 * is the fastest a server could send these statements, not a copy of the
 * service's driver settings. Prints "listening on <url>" when ready.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { periodsOfSport } from '../src/domain/sports/league-registry.js';
import { toCrowd } from '../src/modules/answers/crowd.js';
import { selectItems, type ParamSource, type RawPlan, type RawStatement } from './bench-raw.js';

const plans = JSON.parse(fs.readFileSync(process.env.RAW_PLANS!, 'utf8')) as RawPlan[];
const sql = postgres(process.env.RAW_DATABASE_URL!, { max: Number(process.env.RAW_POOL ?? 10), onnotice: () => {} });

type Row = unknown[];
type Cell = string | number | boolean | Date | null | Record<string, unknown> | unknown[];

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A column of a row by its (qualified) name in the statement's output. */
function reader(statement: RawStatement) {
  const index = new Map<string, number>();
  statement.columns.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  return (row: Row, name: string): Cell => {
    const i = index.get(name);
    if (i === undefined) throw new Error(`the captured statement has no column ${name}: the raw anchor's response builder must follow the service's query`);
    return row[i] as Cell;
  };
}

const iso = (v: Cell) => (v instanceof Date ? v.toISOString() : v === null ? null : new Date(v as string).toISOString());
const int = (v: Cell) => (v === null ? null : Number(v));

function bind(sources: ParamSource[], ctx: { digest: string | null; body: Record<string, unknown>; results: Row[][]; now: number }): unknown[] {
  return sources.map((s) => {
    switch (s.kind) {
      case 'const':
        return s.value;
      case 'digest':
        return ctx.digest;
      case 'body':
        return ctx.body[s.field];
      case 'row':
        return ctx.results[s.statement]?.[0]?.[s.column] ?? null;
      case 'rows':
        return (ctx.results[s.statement] ?? [])
          .filter((r) => r[s.when] !== null)
          .map((r) => r[s.column])
          .join(',');
      case 'now':
        return new Date(ctx.now + s.offsetMs).toISOString();
    }
  });
}

const brandOf = (id: Cell, name: Cell, primary: Cell, secondary: Cell, logoKey: Cell) =>
  id === null ? null : { id, name, primary_color: primary, secondary_color: secondary, logo_url: logoKey ? `/api/brands/${id as string}/logo` : null };

/** Builds each endpoint's response from the rows of its statements. */
const respond: Record<
  RawPlan['id'],
  (plan: RawPlan, results: Row[][], ctx: { body: Record<string, unknown>; now: number }) => { status: number; json: unknown }
> = {
  leagues(plan, results) {
    const col = reader(plan.statements[0]!);
    return {
      status: 200,
      json: results[0]!.map((r) => ({
        id: col(r, 'id'),
        slug: col(r, 'slug'),
        name: col(r, 'name'),
        sport: col(r, 'sport'),
        periods: [...periodsOfSport(col(r, 'sport') as never)],
        default_question_max_count: col(r, 'default_question_max_count'),
        default_question_min_interval_seconds: col(r, 'default_question_min_interval_seconds'),
        default_question_period_distribution: col(r, 'default_question_period_distribution'),
        default_question_points: col(r, 'default_question_points'),
        default_answer_window_seconds: col(r, 'default_answer_window_seconds'),
        default_min_answer_seconds: col(r, 'default_min_answer_seconds'),
        default_question_probability: col(r, 'default_question_probability'),
        question_definition_allowlist: col(r, 'question_definition_allowlist'),
        match_question_definition_allowlist: col(r, 'match_question_definition_allowlist'),
        created_at: iso(col(r, 'created_at')),
        updated_at: iso(col(r, 'updated_at')),
      })),
    };
  },
  matches(plan, results) {
    const last = plan.statements.length - 1;
    const col = reader(plan.statements[last]!);
    return {
      status: 200,
      json: results[last]!.map((r) => ({
        view: 'player',
        id: col(r, 'matches.id'),
        league: col(r, 'leagues.slug'),
        home_team: col(r, 'matches.home_team'),
        away_team: col(r, 'matches.away_team'),
        scheduled: iso(col(r, 'matches.scheduled')),
        status: col(r, 'matches.status'),
        period: col(r, 'matches.period'),
        clock_seconds: col(r, 'matches.clock_seconds'),
        home_score: col(r, 'matches.home_score'),
        away_score: col(r, 'matches.away_score'),
        is_test: col(r, 'matches.is_test'),
        sponsor_brand: brandOf(
          col(r, 'brands.id'),
          col(r, 'brands.name'),
          col(r, 'brands.primary_color'),
          col(r, 'brands.secondary_color'),
          col(r, 'brands.logo_key'),
        ),
        question_max_count: col(r, 'matches.question_max_count') ?? col(r, 'leagues.default_question_max_count'),
        question_issuance_count: int(col(r, 'regular')),
        pivotal_moment_issuance_count: int(col(r, 'pivotal')),
        is_followed: col(r, 'match_follows.following') === true,
      })),
    };
  },
  open(plan, results, { now }) {
    const at = plan.statements.findIndex((st) => st.columns.includes('question_issuances.closes_at'));
    const col = reader(plan.statements[at]!);
    // The crowd's count of the questions the caller answered, when the captured read had any.
    const countAt = plan.statements.findIndex((st, i) => i > at && st.columns.includes('question_answers.selected_answer_identifier'));
    const counts = new Map<string, Record<string, number>>();
    for (const [id, choice, n] of countAt >= 0 ? results[countAt]! : []) {
      const c = counts.get(id as string) ?? {};
      c[choice as string] = Number(n);
      counts.set(id as string, c);
    }
    return {
      status: 200,
      json: results[at]!.map((r) => {
        const closesAt = col(r, 'question_issuances.closes_at') as Date;
        const answered = col(r, 'question_answers.selected_answer_identifier');
        return {
          question_issuance_id: col(r, 'question_issuances.id'),
          kind: col(r, 'question_issuances.kind'),
          match: {
            id: col(r, 'matches.id'),
            league: col(r, 'leagues.slug'),
            home_team: col(r, 'matches.home_team'),
            away_team: col(r, 'matches.away_team'),
            scheduled: iso(col(r, 'matches.scheduled')),
            status: col(r, 'matches.status'),
            is_test: col(r, 'matches.is_test'),
          },
          question_text: col(r, 'question_issuances.question_text'),
          choices: col(r, 'question_issuances.choices'),
          is_pivotal_moment: col(r, 'question_issuances.is_pivotal_moment'),
          points: col(r, 'question_issuances.points'),
          issued_at: iso(col(r, 'question_issuances.issued_at')),
          closes_at: iso(closesAt),
          seconds_remaining: Math.max(0, Math.ceil((closesAt.getTime() - now) / 1000)),
          current_answer: col(r, 'question_answers.selected_answer_identifier'),
          crowd:
            answered === null
              ? null
              : toCrowd(col(r, 'question_issuances.choices') as { identifier: string }[], counts.get(col(r, 'question_issuances.id') as string) ?? {}),
          sponsor_brand: col(r, 'question_issuances.sponsor_brand'),
          match_sponsor_brand: col(r, 'question_issuances.match_sponsor_brand'),
        };
      }),
    };
  },
  answer(plan, results) {
    const last = plan.statements.length - 1;
    const col = reader(plan.statements[last]!);
    const r = results[last]![0]!;
    return {
      status: r[r.length - 1] === true ? 201 : 200,
      json: {
        id: col(r, 'id'),
        question_issuance_id: col(r, 'question_issuance_id'),
        selected_answer_identifier: col(r, 'selected_answer_identifier'),
        created_at: iso(col(r, 'created_at')),
        updated_at: iso(col(r, 'updated_at')),
      },
    };
  },
  points(plan, results) {
    const last = plan.statements.length - 1;
    const user = reader(plan.statements[0]!);
    const counts = (results[last]![0]![0] as number[]).map(Number);
    const bounds = bind(plan.statements[last]!.params, { digest: null, body: {}, results: [], now: Date.now() }) as string[];
    const figures = (at: number) => ({ points: counts[at]!, answered_count: counts[at + 1]!, resolved_count: counts[at + 2]!, correct_count: counts[at + 3]! });
    const periods = ['today', 'this_week', 'this_month', 'this_year'].map((period, i) => ({
      period,
      starts_at: new Date(bounds[i * 8]!).toISOString(),
      ends_at: new Date(bounds[i * 8 + 1]!).toISOString(),
      ...figures(4 + i * 4),
    }));
    return {
      status: 200,
      json: { user_id: user(results[0]![0]!, 'users.id'), timezone: user(results[0]![0]!, 'users.match_follow_timezone'), all_time: figures(0), periods },
    };
  },
};

/** The service's checks of an answer, on the question row (statement 1). */
function checkAnswer(plan: RawPlan, results: Row[][], body: Record<string, unknown>, now: number): void {
  const q = results[1]![0];
  if (!q) throw new HttpError(404, 'question issuance not found');
  const col = reader(plan.statements[1]!);
  // The follow flag is the select list's coalesce(...following...) expression; a match question on a match not started needs no follow.
  const followIndex = plan.statements[1]!.columns.findIndex((_, i) =>
    /coalesce\("match_follows"\."following"/.test(selectItems(plan.statements[1]!.text)[i] ?? ''),
  );
  if (followIndex < 0) throw new Error('the question statement no longer selects the follow flag: update the raw anchor');
  if (q[followIndex] !== true && col(q, 'question_issuances.kind') === 'in_game') throw new HttpError(403, 'follow the match to answer its questions');
  const status = col(q, 'question_issuances.status');
  if (status !== 'open' && status !== 'locked') throw new HttpError(409, `this question is already ${String(status)}`);
  if (status === 'locked' || (col(q, 'question_issuances.closes_at') as Date).getTime() <= now) throw new HttpError(409, 'this question is closed');
  const choices = col(q, 'question_issuances.choices') as { identifier: string }[];
  if (!choices.some((c) => c.identifier === body.selected_answer_identifier)) throw new HttpError(400, 'not a choice of this question');
}

/** The rows of the statements the service keeps in process (RawStatement.kept), by statement and parameters. */
const keptRows = new Map<RawStatement, Map<string, { rows: Row[]; until: number }>>();

async function rowsOf(db: postgres.Sql | postgres.TransactionSql, s: RawStatement, params: unknown[], now: number): Promise<Row[]> {
  if (!s.kept) return (await db.unsafe(s.text, params as never[]).values()) as unknown as Row[];
  let table = keptRows.get(s);
  if (!table) keptRows.set(s, (table = new Map()));
  const key = params.length === 1 ? String(params[0]) : JSON.stringify(params);
  const entry = table.get(key);
  if (entry && entry.until > now) return entry.rows;
  const rows = (await db.unsafe(s.text, params as never[]).values()) as unknown as Row[];
  // As the key cache: an unknown key is never kept.
  if (rows.length || s.params.every((p) => p.kind !== 'digest')) table.set(key, { rows, until: s.kept.keepMs === null ? Infinity : now + s.kept.keepMs });
  return rows;
}

async function run(plan: RawPlan, token: string | null, body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  const now = Date.now();
  const digest = token === null ? null : createHash('sha256').update(token).digest('hex');
  const results: Row[][] = [];
  const exec = async (db: postgres.Sql | postgres.TransactionSql, i: number) => {
    const s = plan.statements[i]!;
    results[i] = await rowsOf(db, s, bind(s.params, { digest, body, results, now }), now);
  };
  let first = 0;
  if (plan.authenticated) {
    if (digest === null) throw new HttpError(401, 'missing or invalid API key');
    await exec(sql, 0);
    if (!results[0]!.length) throw new HttpError(401, 'missing or invalid API key');
    first = 1;
  }
  const rest = async (db: postgres.Sql | postgres.TransactionSql) => {
    for (let i = first; i < plan.statements.length; i++) {
      await exec(db, i);
      if (plan.id === 'answer' && i === 1) checkAnswer(plan, results, body, now);
    }
  };
  if (plan.transaction) await sql.begin((tx) => rest(tx));
  else await rest(sql);
  return respond[plan.id](plan, results, { body, now });
}

const byRoute = new Map(plans.map((p) => [`${p.method} ${p.path}`, p]));

/**
 * The serialized response of an endpoint whose statements are all kept and which reads no clock, no key and no
 * body (the league list): kept as the text the service keeps (its reusedBody), made once.
 */
const keptText = new Map<RawPlan, string>();
const keepsText = (plan: RawPlan) =>
  !plan.authenticated && plan.statements.every((s) => s.kept && s.kept.keepMs === null && s.params.every((p) => p.kind === 'const'));

const server = http.createServer((req, res) => {
  const sendText = (status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const send = (status: number, json: unknown) => sendText(status, JSON.stringify(json));
  const plan = byRoute.get(`${req.method} ${(req.url ?? '').split('?')[0]}`);
  if (!plan) return send(404, { detail: 'not found' });
  const kept = keptText.get(plan);
  if (kept !== undefined) {
    req.resume();
    return sendText(200, kept);
  }
  const auth = req.headers.authorization;
  const token = auth?.startsWith('Bearer ') ? auth.slice(7) : null;
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: Record<string, unknown> = {};
    if (chunks.length) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(400, { detail: 'the body is not JSON' });
      }
      if (typeof body.question_issuance_id !== 'string' || typeof body.selected_answer_identifier !== 'string')
        return send(400, { detail: 'question_issuance_id and selected_answer_identifier are required' });
    }
    run(plan, token, body).then(
      (r) => {
        const text = JSON.stringify(r.json);
        if (r.status === 200 && keepsText(plan)) keptText.set(plan, text);
        sendText(r.status, text);
      },
      (err: unknown) => (err instanceof HttpError ? send(err.status, { detail: err.message }) : send(500, { detail: String((err as Error).message) })),
    );
  });
});

server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void sql.end({ timeout: 1 }).finally(() => process.exit(0));
});
