/**
 * A postgres.js client whose every wait is bounded, for the connections of a
 * process that must answer quickly (the API) or at least eventually (the
 * engine). postgres.js itself waits without limit: for a free connection
 * behind a reconnect back-off, and for a server that stopped answering (a
 * frozen server keeps its sockets open).
 *
 * - At most `slots` statements and transactions are handed to postgres.js at
 *   once (the pool size); the others wait here, in order, up to `poolWaitMs`.
 *   A wait that passes its deadline gives up here, so the statement is never
 *   sent later: after the caller was told "unavailable", nothing it asked
 *   for runs.
 * - A wait for a connection that runs out is told apart by what the server
 *   does meanwhile. A live server answers every statement within its
 *   `statement_timeout` (it cancels it itself), so a statement still
 *   unanswered `STALL_GRACE_MS` past its deadline means the server is not
 *   answering: then a waiter gives up after `statementMs` (or as soon as
 *   that is known) with DatabaseUnavailableError (an outage).
 *   Otherwise every connection is simply busy: the waiter waits the whole
 *   `poolWaitMs` and gives up with DatabaseBusyError (overload).
 * - A statement, or the start of a transaction, that takes longer than
 *   `statementMs` once it has a connection fails with
 *   DatabaseUnavailableError. One already sent may still run when a frozen
 *   server resumes: a write can then be applied although its caller saw a
 *   failure (a transaction's statement cannot: the transaction rolls back).
 * - A transaction whose statement failed that way fails at once, without
 *   waiting for its ROLLBACK, which postgres.js sends when the server answers
 *   again; the slot comes back only then.
 * - COMMIT unanswered after `commitMs` (or whose connection is lost) fails
 *   with CommitOutcomeUnknownError, never as "not done": the transaction may
 *   have committed. Without `commitMs` (the engine) COMMIT is awaited.
 * - With `retryConnectFailures` (the engine's budget), a statement or a
 *   transaction whose connection attempt failed (a server stopped or
 *   restarting) is tried again for up to `statementMs`: nothing was sent, so
 *   it is safe, and a short outage costs a delay rather than a failure.
 *
 * A slot is held until postgres.js settles the statement, so slots in use
 * never undercount busy connections and nothing queues inside postgres.js.
 */
import type { Sql } from 'postgres';
import { metrics, registerPool } from '../observability/metrics.js';
import { SpanKind, traced, tracingEnabled } from '../observability/tracing.js';
import {
  CommitOutcomeUnknownError,
  DatabaseBusyError,
  DatabaseUnavailableError,
  commitOutcomeUnknown,
  isConnectFailure,
  isDatabaseBusy,
  isDatabaseUnavailable,
} from './availability.js';

export interface WaitBudget {
  /** Longest wait for one statement's answer, or for a transaction to start, once it has a connection (ms). */
  statementMs: number;
  /** Longest wait for a free connection while the database answers (ms; default `statementMs`). */
  poolWaitMs?: number;
  /** Longest wait for COMMIT's answer (ms); unset: COMMIT is awaited however long it takes. */
  commitMs?: number;
  /** Statements and transactions handed to postgres.js at once: its pool size. */
  slots: number;
  /** Try again, within the deadline, what failed to get a connection (nothing sent yet). */
  retryConnectFailures?: boolean;
  /** The pool's name in metrics (`api`, `engine`). */
  pool?: string;
  /**
   * Send every statement as a named prepared statement (postgres.js keeps one
   * per connection and query text): the server parses and plans it once per
   * connection, and later executions send only its name and parameters.
   * drizzle asks for an unnamed statement (parsed on every execution) unless
   * a query is built with `.prepare()`.
   */
  prepare?: boolean;
}

/** Pause before trying a failed connection again (ms). */
const RETRY_PAUSE_MS = 250;

interface Waiter {
  grant: () => void;
  /** Gives up as an outage (the database is not answering). */
  giveUp: () => void;
  since: number;
  timers: NodeJS.Timeout[];
}

/**
 * A counting semaphore whose waits end at a deadline: `waitMs` while the
 * database answers, `stallMs` once `stalled()` says it does not (see the
 * file's description).
 */
class Slots {
  private free: number;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly size: number,
    private readonly waitMs: number,
    private readonly stallMs: number,
    private readonly stalled: () => boolean,
  ) {
    this.free = size;
  }

  get inUse(): number {
    return this.size - this.free;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Resolves with the release function of a slot, or rejects when none frees up in time. */
  acquire(what: () => string): Promise<() => void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const leave = (err: Error) => {
        const at = this.waiters.indexOf(waiter);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        for (const t of waiter.timers) clearTimeout(t);
        reject(err);
      };
      const outage = () => new DatabaseUnavailableError(`no database connection became free for ${what()}: the database is not answering`);
      const waiter: Waiter = {
        grant: () => resolve(this.releaser()),
        giveUp: () => leave(outage()),
        since: Date.now(),
        timers: [],
      };
      waiter.timers.push(
        setTimeout(
          () => leave(this.stalled() ? outage() : new DatabaseBusyError(`every database connection stayed busy for ${this.waitMs} ms (${what()})`)),
          this.waitMs,
        ),
      );
      if (this.stallMs < this.waitMs)
        waiter.timers.push(
          setTimeout(() => {
            if (this.stalled()) leave(outage());
          }, this.stallMs),
        );
      this.waiters.push(waiter);
    });
  }

  /** A statement went unanswered past its deadline: waiters that waited `stallMs` already give up now. */
  onStall(): void {
    const now = Date.now();
    for (const waiter of [...this.waiters]) if (now - waiter.since >= this.stallMs) waiter.giveUp();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) {
        for (const t of next.timers) clearTimeout(t);
        next.grant();
      } else this.free += 1;
    };
  }
}

/**
 * How long past its deadline a statement may stay unanswered before the
 * server counts as not answering: the server's own `statement_timeout`
 * fires at the same budget, measured from a little later (the statement's
 * trip and queueing), and its cancellation needs to travel back.
 */
const STALL_GRACE_MS = 500;

/**
 * Counts what the server has left unanswered past its deadline (statements,
 * transaction starts, COMMITs): while any is, the server is taken as not
 * answering.
 */
class Stalls {
  private count = 0;
  constructor(private readonly onStall: () => void) {}

  get any(): boolean {
    return this.count > 0;
  }

  /** `work` passed its deadline: still unanswered `STALL_GRACE_MS` later, it is stalled until it settles. */
  add(work: Promise<unknown>): void {
    let settled = false;
    const settle = () => {
      settled = true;
    };
    work.then(settle, settle);
    setTimeout(() => {
      if (settled) return;
      this.count += 1;
      const done = () => {
        this.count -= 1;
      };
      work.then(done, done);
      this.onStall();
    }, STALL_GRACE_MS).unref();
  }
}

/**
 * Rejects with `late()` when `work` has not settled by the deadline (work
 * goes on; its outcome is dropped), and reports it to `stalls` until it
 * settles.
 */
function withDeadline<T>(work: Promise<T>, deadline: number, stalls: Stalls, late: () => Error): Promise<T> {
  work.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        stalls.add(work);
        reject(late());
      },
      Math.max(0, deadline - Date.now()),
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

type Query = PromiseLike<unknown> & { values(): unknown; raw?(): unknown };

/**
 * Times a statement (its wait for a connection included) into the pool's
 * histogram, and, with tracing on, runs it in a client span carrying its SQL.
 */
function observed(pool: string, run: () => Promise<unknown>): Promise<unknown> {
  const started = performance.now();
  const timed = run().then(
    (value) => {
      metrics.dbStatementDuration.observe({ pool, outcome: 'ok' }, (performance.now() - started) / 1000);
      return value;
    },
    (err: unknown) => {
      const outcome = isDatabaseBusy(err) ? 'busy' : isDatabaseUnavailable(err) ? 'unavailable' : 'error';
      metrics.dbStatementDuration.observe({ pool, outcome }, (performance.now() - started) / 1000);
      throw err;
    },
  );
  return timed;
}

const statementText = (statement: unknown) => (typeof statement === 'string' ? statement : Array.isArray(statement) ? statement.join('$?') : '');

const describe = (statement: unknown) => () => {
  const text = typeof statement === 'string' ? statement : Array.isArray(statement) ? statement.join('?') : 'a statement';
  const short = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  return `"${short}${text.length > 60 ? '...' : ''}"`;
};

/**
 * A thenable in place of a postgres.js query: makes and runs it (within
 * budget) when awaited; `make` gives a fresh query for each attempt.
 * `values()` is passed on to every query made (drizzle asks for rows as
 * arrays that way).
 */
function deferred(create: () => Query, run: (make: () => Query) => Promise<unknown>) {
  let started: Promise<unknown> | undefined;
  let asValues = false;
  const make = () => {
    const query = create();
    if (asValues) query.values();
    return query;
  };
  const start = () => (started ??= run(make));
  const thenable = {
    values() {
      asValues = true;
      return thenable;
    },
    then<A = unknown, B = never>(onFulfilled?: ((value: unknown) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null) {
      return start().then(onFulfilled, onRejected);
    },
    catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null) {
      return start().catch(onRejected);
    },
    finally(onFinally?: (() => void) | null) {
      return start().finally(onFinally);
    },
  };
  return thenable;
}

const isQuery = (value: unknown): value is Query => value instanceof Promise && typeof (value as { values?: unknown }).values === 'function';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wraps a postgres.js pool (`Sql`) so that drizzle's statements and transactions through it keep the budget. */
export function boundedClient(sql: Sql, budget: WaitBudget): Sql {
  const stalls: Stalls = new Stalls(() => slots.onStall());
  const slots: Slots = new Slots(budget.slots, budget.poolWaitMs ?? budget.statementMs, budget.statementMs, () => stalls.any);
  const pool = budget.pool ?? 'api';
  const unanswered = (what: () => string) => () => new DatabaseUnavailableError(`the database did not answer ${what()} in time`);
  registerPool(pool, slots);

  /**
   * unsafe(text, parameters, options) with `prepare` set as the budget says.
   * postgres.js sends a statement without parameters over the simple protocol
   * (never prepared, and allowed to hold several statements); one that asked
   * to be prepared (drizzle's `.prepare()`: src/db/prepared.ts) goes over the
   * extended protocol even then, so a parameterless hot query is kept too.
   */
  const prepared = budget.prepare === true;
  const withPrepare = (rest: unknown[]) => {
    const params = (rest[0] ?? []) as unknown[];
    const options = (rest[1] ?? {}) as { prepare?: boolean; simple?: boolean };
    // Off: nothing is kept on the server, whatever the query asked for.
    if (!prepared) return [params, { ...options, prepare: false }];
    const asked = options.prepare === true;
    return [params, { ...options, prepare: true, ...(asked && params.length === 0 && options.simple === undefined ? { simple: false } : {}) }];
  };

  /** Whether a failed attempt is tried again: a connection attempt that failed, with time left for another. */
  const retryable = (err: unknown, until: number) => budget.retryConnectFailures === true && isConnectFailure(err) && Date.now() + RETRY_PAUSE_MS < until;

  /** A statement outside any transaction: a slot (its own wait), then the statement (its own deadline). */
  const poolStatement = (what: () => string, statement: unknown) => (make: () => Query) => instrumented(statement, () => poolRun(what, make));
  const poolRun = async (what: () => string, make: () => Query) => {
    const retryUntil = Date.now() + budget.statementMs;
    for (;;) {
      const release = await slots.acquire(what);
      const running = Promise.resolve(make()).finally(release);
      try {
        return await withDeadline(running, Date.now() + budget.statementMs, stalls, unanswered(what));
      } catch (err) {
        if (!retryable(err, retryUntil)) throw err;
        await pause(RETRY_PAUSE_MS);
      }
    }
  };

  /** A statement inside a transaction: its connection is reserved already, only the answer is waited for. */
  const txStatement = (what: () => string, statement: unknown) => (make: () => Query) =>
    instrumented(statement, () => withDeadline(Promise.resolve(make()), Date.now() + budget.statementMs, stalls, unanswered(what)));

  /** Metrics always; a span when tracing runs. */
  const instrumented = (statement: unknown, run: () => Promise<unknown>) =>
    tracingEnabled()
      ? traced(
          'db.query',
          { 'db.system': 'postgresql', 'db.query.text': statementText(statement).slice(0, 2000), 'qp.pool': pool },
          () => observed(pool, run),
          SpanKind.CLIENT,
        )
      : observed(pool, run);

  /**
   * Runs `fn` as postgres.js's transaction (or savepoint) callback with a
   * bounded client, and fails fast when one of its statements ran out of
   * time. `onStart` hears when `fn` starts (the transaction began). `commit`
   * (a transaction, not a savepoint): once `fn` is done postgres.js sends
   * COMMIT; unanswered within `commit.ms` (when set), or lost with its
   * connection, it fails with CommitOutcomeUnknownError.
   */
  async function transaction(
    open: (callback: (tx: Sql) => Promise<unknown>) => Promise<unknown>,
    fn: (tx: Sql) => unknown,
    deadline: number | null,
    onStart?: () => void,
    commit?: { ms: number | undefined },
  ): Promise<unknown> {
    let started = false;
    let abandoned = false;
    let committing = false;
    let commitTimer: NodeJS.Timeout | undefined;
    let fail!: (err: unknown) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => {});
    const done = open(async (tx) => {
      if (abandoned) throw new DatabaseUnavailableError('the transaction started after its caller gave up');
      started = true;
      onStart?.();
      let result: unknown;
      try {
        result = await fn(wrapTx(tx));
      } catch (err) {
        // Fail now; postgres.js rolls back when the server answers again.
        if (isDatabaseUnavailable(err)) fail(err);
        throw err;
      }
      if (commit) {
        committing = true;
        const ms = commit.ms;
        if (ms !== undefined)
          commitTimer = setTimeout(() => {
            stalls.add(done);
            fail(new CommitOutcomeUnknownError(`the database did not confirm COMMIT within ${ms} ms: the transaction may have been stored`));
          }, ms);
      }
      return result;
    });
    done.catch(() => {});
    const timer =
      deadline === null
        ? undefined
        : setTimeout(
            () => {
              if (started) return;
              abandoned = true;
              stalls.add(done);
              fail(new DatabaseUnavailableError('the database did not start a transaction in time'));
            },
            Math.max(0, deadline - Date.now()),
          );
    try {
      return await Promise.race([done, failed]);
    } catch (err) {
      if (committing && !(err instanceof CommitOutcomeUnknownError) && commitOutcomeUnknown(err))
        throw new CommitOutcomeUnknownError('the connection was lost while COMMIT was on its way: the transaction may have been stored', { cause: err });
      throw err;
    } finally {
      clearTimeout(timer);
      clearTimeout(commitTimer);
    }
  }

  /** A proxy of `target` whose properties named in `overrides` are replaced (made once, not per access). */
  function override(target: Sql, apply: (args: unknown[]) => unknown, overrides: Record<string, unknown>): Sql {
    return new Proxy(target, {
      apply: (_target, _thisArg, args: unknown[]) => apply(args),
      get: (_target, prop) => (typeof prop === 'string' && prop in overrides ? overrides[prop] : Reflect.get(target, prop, target)),
    }) as Sql;
  }

  function wrapTx(tx: Sql): Sql {
    const unsafe = tx.unsafe as (...a: unknown[]) => Query;
    const savepoint = (tx as unknown as { savepoint: (...a: unknown[]) => Promise<unknown> }).savepoint;
    return override(
      tx,
      (args) => {
        const result: unknown = Reflect.apply(tx as never, undefined, args);
        // Inside a transaction nothing is tried again: the query made here is the one run.
        return isQuery(result) ? deferred(() => result, txStatement(describe(args[0]), args[0])) : result;
      },
      {
        unsafe: (statement: string, ...rest: unknown[]) => deferred(() => unsafe(statement, ...withPrepare(rest)), txStatement(describe(statement), statement)),
        savepoint: (...args: unknown[]) => {
          const fn = args.pop() as (tx: Sql) => unknown;
          return transaction((callback) => savepoint(...args, callback), fn, null);
        },
      },
    );
  }

  const unsafe = sql.unsafe as (...a: unknown[]) => Query;
  const begin = sql.begin as (...a: unknown[]) => Promise<unknown>;
  return override(
    sql,
    (args) => {
      const result: unknown = Reflect.apply(sql as never, undefined, args);
      if (!isQuery(result)) return result;
      // The first attempt runs the query made here; a retry makes another from the same template.
      let first: Query | undefined = result;
      const make = () => {
        const query = first ?? (Reflect.apply(sql as never, undefined, args) as Query);
        first = undefined;
        return query;
      };
      return deferred(make, poolStatement(describe(args[0]), args[0]));
    },
    {
      unsafe: (statement: string, ...rest: unknown[]) => deferred(() => unsafe(statement, ...withPrepare(rest)), poolStatement(describe(statement), statement)),
      begin: async (...args: unknown[]) => {
        const fn = args.pop() as (tx: Sql) => unknown;
        const retryUntil = Date.now() + budget.statementMs;
        for (;;) {
          const release = await slots.acquire(() => 'a transaction');
          const open = (callback: (tx: Sql) => Promise<unknown>) => {
            const begun = begin(...args, callback);
            begun.then(release, release);
            return begun;
          };
          let began = false;
          try {
            // A read-only transaction stores nothing: its COMMIT failing is only the database being out of reach.
            const readOnly = args.some((a) => typeof a === 'string' && /\bread only\b/i.test(a));
            return await transaction(open, fn, Date.now() + budget.statementMs, () => (began = true), readOnly ? undefined : { ms: budget.commitMs });
          } catch (err) {
            // BEGIN never got a connection: nothing of the transaction ran.
            if (began || !retryable(err, retryUntil)) throw err;
            await pause(RETRY_PAUSE_MS);
          }
        }
      },
    },
  );
}
