/**
 * The raw anchor of npm run bench: what the hot endpoints would cost with no
 * framework at all. A minimal node:http + postgres.js server
 * (scripts/bench-raw-server.ts) runs in a separate process on the same
 * database and data, and answers each endpoint by sending exactly the SQL
 * statements the service sends, then building a response of the same shape.
 *
 * The statements are not written by hand: they are captured from the service
 * (database.onQuery) while it answers one request per endpoint, so a change
 * to the service's queries changes the anchor too. The anchor does the
 * service's work, no more and no less: each endpoint is captured twice, once
 * with the service's key cache and league list emptied (every statement a
 * request can need, with the rows later statements read) and once warm (the
 * statements a request sends in the steady state). A statement of the first
 * capture the warm request does not send is one whose rows the service keeps
 * in process: the raw server keeps them too, by their parameters (the key
 * lookup by digest, for as long as the service's key cache keeps an entry;
 * the league list until the run ends), and where every statement of an
 * endpoint is kept it keeps the serialized response as the service does (the
 * league list's body). For each parameter of each
 * statement the capture works out where its value came from, by running the
 * captured statements again and looking the value up:
 *
 * - the SHA-256 digest of the caller's key (`digest`);
 * - a field of the JSON request body (`body`);
 * - a column of a row an earlier statement of the same request returned
 *   (`row`: the user id the key lookup found, the match of the question), or
 *   the values of a column of its rows, joined as one list (`rows`: the
 *   questions the caller answered, whose crowd a read counts);
 * - the clock: a timestamp within a month of the request that is not a
 *   calendar boundary is taken as "now plus an offset" (`now`); a midnight
 *   boundary (today, this week, this month, this year) is kept as it is,
 *   valid for a run that does not cross midnight;
 * - anything else is a constant of the query (`const`).
 *
 * A statement that takes a row lock (`for share`, `for update`) means the
 * service runs that request's statements after the key lookup in one
 * transaction (BEGIN/COMMIT are the driver's and not seen by onQuery): so
 * does the raw server. Before any load, every endpoint is asked once on both
 * servers with the same request and the two answers must have the same shape
 * (keys, nesting, array lengths) and status: a plan that has drifted from the
 * service fails the bench instead of measuring something else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/db/client.js';
import type { HotData } from './bench-hot.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type ParamSource =
  | { kind: 'const'; value: unknown }
  | { kind: 'digest' }
  | { kind: 'body'; field: string }
  | { kind: 'row'; statement: number; column: number }
  /** The values of a column of an earlier statement's rows whose `when` column is not null, joined by commas (a list of ids as one parameter). */
  | { kind: 'rows'; statement: number; column: number; when: number }
  | { kind: 'now'; offsetMs: number };

export interface RawStatement {
  text: string;
  params: ParamSource[];
  /** Output column names, qualified where the select list says `"table"."column"` (the response builders read them). */
  columns: string[];
  /**
   * The service keeps this statement's rows in process (a warm request does not send it): the raw server
   * keeps them too, by parameters, for `keepMs` (null: until the run ends).
   */
  kept?: { keepMs: number | null };
}

export type RawEndpointId = 'leagues' | 'matches' | 'open' | 'answer' | 'points';

export interface RawPlan {
  id: RawEndpointId;
  method: 'GET' | 'PUT';
  path: string;
  /** Whether the first statement is the key lookup (an authenticated endpoint). */
  authenticated: boolean;
  /** Statements after the key lookup run in one transaction. */
  transaction: boolean;
  statements: RawStatement[];
  /** What a warm request of the service sends, in order (BEGIN/COMMIT are the driver's and not seen). */
  warm: string[];
}

export interface RawRequest {
  method: 'GET' | 'PUT';
  path: string;
  token?: string;
  body?: Record<string, unknown>;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const MONTH_MS = 31 * 86_400_000;

/** Splits a select list at its top-level commas (outside parentheses and quotes). */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts;
}

/** The items of a statement's output list: a select's (up to its top-level ` from `), or an insert's/update's ` returning ` list. */
export function selectItems(text: string): string[] {
  let list: string | null = null;
  if (/^select /i.test(text)) {
    let depth = 0;
    let quote: string | null = null;
    for (let i = 7; i < text.length; i++) {
      const c = text[i]!;
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (depth === 0 && text.startsWith(' from ', i)) {
        list = text.slice(7, i);
        break;
      }
    }
  } else {
    const returning = / returning (.*)$/s.exec(text);
    if (returning) list = returning[1]!;
  }
  return list === null ? [] : splitTopLevel(list);
}

/** Output column names: `table.column` for a qualified column, the alias or bare name for the rest, `#<index>` for an unnamed expression. */
export function outputColumns(text: string): string[] {
  return selectItems(text).map((item, i) => {
    const qualified = /^"(\w+)"\."(\w+)"$/.exec(item);
    if (qualified) return `${qualified[1]}.${qualified[2]}`;
    const alias = /^(?:"\w+"|.* as "\w+")$/.test(item) ? /"(\w+)"$/.exec(item) : null;
    return alias ? alias[1]! : `#${i}`;
  });
}

const UUID_LIST = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(,[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})*$/;
const isMidnight = (iso: string) => /T00:00:00(\.000)?Z$/.test(iso);

/**
 * Captures the statements of one request of the service and the source of
 * each parameter. `execute` runs a statement again (to read the rows earlier
 * statements returned); `request` sends the request to the service.
 */
/** The statements the service sends for one request, with their parameters. */
async function statementsOf(
  database: Database,
  req: RawRequest,
  send: (req: RawRequest) => Promise<{ status: number }>,
): Promise<{ text: string; params: unknown[] }[]> {
  const seen: { text: string; params: unknown[] }[] = [];
  const stop = database.onQuery((text, params) => seen.push({ text, params: [...params] }));
  let status: number;
  try {
    ({ status } = await send(req));
  } finally {
    stop();
  }
  if (status < 200 || status > 299) throw new Error(`raw anchor: capturing ${req.method} ${req.path} answered ${status}`);
  return seen;
}

/**
 * Marks the statements of a cold capture that a warm request does not send (the service keeps their rows): the
 * warm statements must be the cold ones with some left out, in the same order, or the service does other work
 * when warm and the anchor cannot copy it. The key lookup is kept as long as the service's key cache keeps an entry.
 */
export function markKept(statements: RawStatement[], warm: string[], authenticated: boolean, keyCacheMs: number): void {
  let w = 0;
  statements.forEach((statement, i) => {
    if (w < warm.length && warm[w] === statement.text) {
      w++;
      return;
    }
    statement.kept = { keepMs: authenticated && i === 0 ? keyCacheMs : null };
  });
  if (w < warm.length)
    throw new Error(`raw anchor: a warm request sends a statement the cold one did not (${warm[w]!.slice(0, 120)}): the anchor cannot do the same work`);
}

async function capture(
  database: Database,
  execute: (text: string, params: unknown[]) => Promise<unknown[][]>,
  id: RawEndpointId,
  req: RawRequest,
  send: (req: RawRequest) => Promise<{ status: number }>,
  keyCacheMs: number,
): Promise<RawPlan> {
  const sentAt = Date.now();
  const seen = await statementsOf(database, req, send);
  // Warm: the same request again, the caches filled by the first (twice: the first warm request may still fill one).
  await statementsOf(database, req, send);
  const warm = (await statementsOf(database, req, send)).map((s) => s.text);
  const digest = req.token ? createHash('sha256').update(req.token).digest('hex') : null;
  const results: unknown[][][] = [];
  const statements: RawStatement[] = [];
  for (const [index, { text, params }] of seen.entries()) {
    const sources = params.map((value): ParamSource => {
      if (digest !== null && value === digest) return { kind: 'digest' };
      if (req.body && typeof value === 'string') {
        const field = Object.keys(req.body).find((k) => req.body![k] === value);
        if (field) return { kind: 'body', field };
      }
      if (typeof value === 'string' && UUID_LIST.test(value)) {
        for (let s = 0; s < results.length; s++) {
          const rows = results[s]!;
          if (rows.length < 2) continue;
          // A column of an outer-joined table first: a row without it (a question not answered) is left out of the list.
          const names = statements[s]!.columns;
          const whens = names
            .map((_, i) => i)
            .sort((a, b) => Number(names[b]!.startsWith('question_answers.')) - Number(names[a]!.startsWith('question_answers.')));
          for (let column = 0; column < rows[0]!.length; column++) {
            for (const when of whens) {
              const joined = rows
                .filter((r) => r[when] !== null)
                .map((r) => r[column])
                .join(',');
              if (joined === value) return { kind: 'rows', statement: s, column, when };
            }
          }
        }
      }
      if (typeof value === 'string' && value.length >= 16) {
        for (let s = 0; s < results.length; s++) {
          for (const row of results[s]!.slice(0, 1)) {
            const column = row.findIndex((cell) => cell === value);
            if (column >= 0) return { kind: 'row', statement: s, column };
          }
        }
      }
      if (typeof value === 'string' && ISO.test(value) && !isMidnight(value)) {
        const offsetMs = Date.parse(value) - sentAt;
        if (Math.abs(offsetMs) < MONTH_MS) return { kind: 'now', offsetMs: Math.round(offsetMs / 1000) * 1000 };
      }
      return { kind: 'const', value };
    });
    statements.push({ text, params: sources, columns: outputColumns(text) });
    // The rows, for the provenance of later parameters (an upsert run again writes the same values).
    results.push(index < seen.length - 1 ? await execute(text, params) : []);
  }
  const authenticated = Boolean(digest) && statements[0]?.params.some((p) => p.kind === 'digest') === true;
  markKept(statements, warm, authenticated, keyCacheMs);
  return {
    id,
    method: req.method,
    path: req.path,
    authenticated,
    transaction: statements.some((s) => / for (share|update)( of "\w+")?$/.test(s.text)),
    statements,
    warm,
  };
}

export interface RawServer {
  base: string;
  pid: number;
  plans: RawPlan[];
  stop(): Promise<void>;
}

/** The requests a capture and the shape check use: the light player's. */
export function anchorRequests(data: HotData): { id: RawEndpointId; req: RawRequest }[] {
  const p = data.light;
  return [
    { id: 'leagues', req: { method: 'GET', path: '/api/leagues' } },
    { id: 'matches', req: { method: 'GET', path: '/api/matches', token: p.key } },
    { id: 'open', req: { method: 'GET', path: '/api/question-answers/open', token: p.key } },
    {
      id: 'answer',
      req: { method: 'PUT', path: '/api/question-answers', token: p.key, body: { question_issuance_id: p.open[0]!, selected_answer_identifier: 'home' } },
    },
    { id: 'points', req: { method: 'GET', path: '/api/users/me/points', token: p.key } },
  ];
}

export async function sendRequest(base: string, req: RawRequest): Promise<{ status: number; json: unknown }> {
  const res = await fetch(base + req.path, {
    method: req.method,
    headers: { ...(req.token ? { authorization: `Bearer ${req.token}` } : {}), ...(req.body ? { 'content-type': 'application/json' } : {}) },
    ...(req.body ? { body: JSON.stringify(req.body) } : {}),
  });
  return { status: res.status, json: await res.json() };
}

/** Keys, nesting and array lengths of a JSON value; values themselves are not compared (times move on). */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  return 'value';
}

/**
 * Captures the plans from the service at `serviceBase`, starts the raw server
 * on `databaseUrl` (PostgreSQL only), and checks both answer every anchor
 * request alike (status and shape). `poolSize`: the raw server's pool, the
 * service's size.
 */
export async function startRawAnchor(options: {
  database: Database;
  databaseUrl: string;
  serviceBase: string;
  data: HotData;
  poolSize: number;
  /**
   * Empties the service's key cache and league list: the first capture of an endpoint must see every statement a
   * request can need (a warm request then shows which of them the service keeps).
   */
  forgetCaches: () => void;
  /** How long the service's key cache keeps an entry (AUTH_CACHE_TTL_MS): the raw server keeps a key's row as long. */
  keyCacheMs: number;
}): Promise<RawServer> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
  const plans: RawPlan[] = [];
  try {
    const execute = async (text: string, params: unknown[]) => (await sql.unsafe(text, params as never[]).values()) as unknown as unknown[][];
    for (const { id, req } of anchorRequests(options.data)) {
      options.forgetCaches();
      plans.push(await capture(options.database, execute, id, req, (r) => sendRequest(options.serviceBase, r), options.keyCacheMs));
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
  const planFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'qp-raw-')), 'plans.json');
  fs.writeFileSync(planFile, JSON.stringify(plans));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/bench-raw-server.ts')], {
    cwd: root,
    env: { ...process.env, RAW_DATABASE_URL: options.databaseUrl, RAW_PLANS: planFile, RAW_POOL: String(options.poolSize) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the raw anchor server exited at start (${code}): ${out}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(path.dirname(planFile), { recursive: true, force: true });
  };
  try {
    for (const { id, req } of anchorRequests(options.data)) {
      const [service, raw] = [await sendRequest(options.serviceBase, req), await sendRequest(base, req)];
      if (service.status !== raw.status)
        throw new Error(`raw anchor ${id}: the service answered ${service.status}, the raw server ${raw.status}: ${JSON.stringify(raw.json).slice(0, 300)}`);
      const a = JSON.stringify(shapeOf(service.json));
      const b = JSON.stringify(shapeOf(raw.json));
      if (a !== b)
        throw new Error(
          `raw anchor ${id}: the raw server's answer has another shape than the service's:\n service ${a.slice(0, 600)}\n raw     ${b.slice(0, 600)}`,
        );
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, pid: child.pid!, plans, stop };
}
