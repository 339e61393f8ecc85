import pg from 'pg';
import type { CompiledQuery, KyselyPlugin, Kysely } from 'kysely';

// A transaction's BEGIN and COMMIT ride with its statements on PostgreSQL (docs/decisions/0104). node-postgres sends
// one statement and waits for its answer before the next; over loopback each of those round trips costs both
// processes a socket write and a wake-up, and a transaction held its locks across the COMMIT's own round trip. The
// extended query protocol lets several statements go in one message and end with one Sync (one answer): so
// - the BEGIN that Kysely sends is held back and goes in front of the transaction's first statement (a transaction
//   that runs none costs nothing at all);
// - a statement whose text carries `THEN_COMMIT` goes with the COMMIT behind it, and the COMMIT Kysely sends after
//   the work is answered here. The caller promises that nothing but that COMMIT follows: a statement after it fails
//   loudly rather than run outside the transaction;
// - statements appended after `AFTER_COMMIT` (text only, their values inlined) are kept for the COMMIT and sent
//   behind it: NOTIFY in a transaction that writes holds a lock of the whole database from its commit's start to the
//   end of its WAL flush, so notifying transactions commit one at a time (measured here: 710 commits a second with
//   the NOTIFY inside, 2,670-3,200 with it after the COMMIT). Behind the COMMIT in the same message, a NOTIFY is sent
//   only when the COMMIT succeeded (an error skips the rest of the message) and costs no round trip;
// - a statement whose text carries `PREPARED` (its shape fixed, its result's columns not read from a table's) is
//   prepared by name on its connection the second time it comes and later only bound: PostgreSQL parses it once and, after
//   five runs, keeps its generic plan instead of planning it again (the request's context statement spent 0.43 ms
//   of its 0.53 in planning, an approval's write 0.24-0.63 ms).
// The server runs the messages in order, and an error skips the rest up to the Sync (a failed statement leaves its
// transaction aborted and open for the ROLLBACK that follows, exactly as before). Only PostgreSQL's Kysely carries
// the `CommitPipelining` plugin: code asks `pipelinesCommits(db)` before using the tags.

/** Appended to a transaction's last statement: it is sent with the COMMIT (PostgreSQL). */
export const THEN_COMMIT = '\n/* then commit */';
/** Precedes a statement (values inlined) to send right after the transaction's COMMIT (PostgreSQL). */
export const AFTER_COMMIT = '\n/* after commit */\n';
/** Marks a statement to prepare by name on each connection (PostgreSQL): a comment, ignored by PGlite. */
export const PREPARED = '\n/* prepared */';
/** Statements prepared per connection at most: past that, the others run unnamed (planned every time) as before. */
const MAX_PREPARED = 100;

/** Marks the Kysely of a PostgreSQL pool whose clients pipeline transactions (it changes no query). */
export class CommitPipelining implements KyselyPlugin {
  transformQuery<T>(args: { node: T }): T {
    return args.node;
  }
  async transformResult<R>(args: { result: R }): Promise<R> {
    return args.result;
  }
}

/** Whether statements on this handle (or a transaction of it) may carry THEN_COMMIT and AFTER_COMMIT. */
export function pipelinesCommits(db: Kysely<any>): boolean {
  return db.getExecutor().plugins.some((p) => p instanceof CommitPipelining);
}

/**
 * A compiled statement as text alone, its values inlined by the client's quoting (strings by escapeLiteral, which
 * is safe whatever standard_conforming_strings says): for statements sent behind a COMMIT without parameters. Our
 * statements' own text holds no `$n` outside its placeholders.
 */
export function inlined(q: CompiledQuery): string {
  return q.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const v = q.parameters[Number(n) - 1];
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    return pg.escapeLiteral(typeof v === 'string' ? v : v instanceof Date ? v.toISOString() : JSON.stringify(v));
  });
}

type Result = { command: string; rowCount: number | null; rows: unknown[] };
const done = (command: string): Promise<Result> => Promise.resolve({ command, rowCount: null, rows: [] });

/**
 * One statement with plain statements before it and after it in the same message, answered as the statement alone.
 * `commitAt`: which statement's completion commits (0: the statement itself — a COMMIT, or one outside a transaction;
 * 1: the COMMIT sent right after it; -1: none): an error after that fails nothing (what follows is a NOTIFY).
 */
class PipelinedQuery extends (pg.Query as unknown as new (config: { text: string; values?: unknown[]; name?: string; queryMode?: string }) => any) {
  private completions = 0;
  /** The command tag of the statement at `commitAt` (a COMMIT answers ROLLBACK when the transaction had already failed). */
  commitCommand: string | undefined;
  constructor(
    text: string,
    values: unknown[] | undefined,
    name: string | undefined,
    private readonly before: string[],
    private readonly after: string[],
    private readonly commitAt: number,
  ) {
    super({ text, values: values ?? [], ...(name ? { name } : {}), queryMode: 'extended' });
  }

  prepare(connection: any): void {
    for (const text of this.before) plain(connection, text);
    super.prepare(connection);
  }

  // Query sends its Execute then the Sync here: the statements after go between them.
  _getRows(connection: any, rows: number | undefined): void {
    connection.execute({ portal: this.portal, rows });
    for (const text of this.after) plain(connection, text);
    connection.sync();
  }

  // Rows of the statements after it (a NOTIFY's count) are not its own: they came without a description.
  handleDataRow(msg: unknown): void {
    if (this.completions === this.before.length) super.handleDataRow(msg);
  }

  handleCommandComplete(msg: { text: string }, connection: unknown): void {
    const index = this.completions++ - this.before.length;
    if (index === 0) super.handleCommandComplete(msg, connection);
    if (index === this.commitAt) this.commitCommand = msg.text;
  }

  handleError(error: Error, connection: unknown): void {
    // A statement after the commit (a NOTIFY) failed: what was written stands; answer the statement as done.
    const committed = this.commitCommand !== undefined && (this.commitCommand === 'COMMIT' || this.commitAt === 0);
    if (committed) {
      process.emitWarning(`a statement sent after a commit failed: ${error.message}`);
      return this.handleReadyForQuery(connection);
    }
    super.handleError(error, connection);
  }
}

/** Parse, Bind and Execute of a statement without parameters, no Sync. */
function plain(connection: any, text: string): void {
  connection.parse({ text });
  connection.bind({});
  connection.execute({});
}

/**
 * Makes the client hold back `begin` and send it with the next statement, send a statement tagged `THEN_COMMIT`
 * together with its COMMIT, and statements after `AFTER_COMMIT` behind the COMMIT. Install it before any other
 * wrapper of `query` (they see the promises it answers).
 */
export function pipelineTransactions(client: pg.ClientBase): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // 'begin': a BEGIN is held back; 'committed': the tagged statement committed, only Kysely's COMMIT may follow.
  let state: 'none' | 'begin' | 'committed' = 'none';
  /** Statements to send behind this transaction's COMMIT. */
  let afterCommit: string[] = [];
  /** How many statements were kept for the COMMIT when each savepoint was set. */
  const savepoints = new Map<string, number>();
  const names = new Map<string, string>();
  // A text is prepared the second time it comes: a write whose shape is one-off (a rare count of rows) is not kept.
  const seen = new Set<string>();
  const nameOf = (text: string): string | undefined => {
    if (!text.includes(PREPARED)) return undefined;
    let name = names.get(text);
    if (name || names.size >= MAX_PREPARED) return name;
    if (!seen.has(text)) {
      if (seen.size >= 4 * MAX_PREPARED) seen.clear();
      seen.add(text);
      return undefined;
    }
    seen.delete(text);
    names.set(text, (name = `tritium_${names.size + 1}`));
    return name;
  };
  const run = (text: string, values: unknown[] | undefined, before: string[], after: string[], commitAt = -1): Promise<Result> =>
    new Promise((resolve, reject) => {
      // Not named behind a BEGIN: the BEGIN's ParseComplete would mark the name parsed even if its own Parse failed.
      const q = new PipelinedQuery(text, values, before.length ? undefined : nameOf(text), before, after, commitAt);
      q.callback = (error: Error | null, result: Result) => {
        if (error) return reject(error);
        if (commitAt === 1 && q.commitCommand !== 'COMMIT') return reject(new Error(`the transaction did not commit (${q.commitCommand ?? 'no answer'})`));
        resolve(result);
      };
      query(q);
    });
  const ended = (command: 'COMMIT' | 'ROLLBACK') => {
    state = 'none';
    afterCommit = [];
    savepoints.clear();
    return done(command);
  };
  (client as { query: unknown }).query = function (config: unknown, values?: unknown, callback?: unknown) {
    if (typeof config !== 'string' || typeof values === 'function' || callback !== undefined) {
      // A cursor or a query config: the held BEGIN goes first, on its own (the client sends its queue in order).
      if (state === 'begin') (query('begin') as Promise<unknown>).catch(() => undefined);
      else if (state === 'committed') throw new Error('a statement after its transaction was committed with its last write');
      state = 'none';
      return query(config, values, callback);
    }
    const params = values as unknown[] | undefined;
    const bare = !params || params.length === 0;
    if (state === 'committed') {
      if (bare && (config === 'commit' || config === 'rollback')) return ended(config === 'commit' ? 'COMMIT' : 'ROLLBACK');
      state = 'none';
      return Promise.reject(new Error('a statement after its transaction was committed with its last write'));
    }
    if (config === 'begin' && bare) {
      state = 'begin';
      afterCommit = [];
      savepoints.clear();
      return done('BEGIN');
    }
    if (state === 'begin') {
      // A transaction that ran nothing: nothing to commit or roll back on the server.
      if (bare && (config === 'commit' || config === 'rollback')) return ended(config === 'commit' ? 'COMMIT' : 'ROLLBACK');
      // A text without values may hold several statements, which only the simple protocol takes: the BEGIN goes first.
      if (bare) {
        state = 'none';
        (query('begin') as Promise<unknown>).catch(() => undefined);
      }
    }
    const before = state === 'begin' ? ['begin'] : [];
    if (state === 'begin') state = 'none';
    if (bare && config === 'commit' && afterCommit.length) {
      const after = afterCommit;
      afterCommit = [];
      // A transaction that already failed answers ROLLBACK to its COMMIT, without error: then nothing is notified.
      if ((client as unknown as { _txStatus?: string })._txStatus === 'E') return query(config, values);
      return run('commit', [], before, after, 0);
    }
    if (bare && config === 'rollback') afterCommit = [];
    // Statements kept for the COMMIT by work a savepoint undoes are dropped with it.
    const savepoint = bare ? /^\s*(savepoint|rollback\s+to(?:\s+savepoint)?)\s+("?[\w]+"?)\s*$/i.exec(config) : null;
    if (savepoint) {
      if (/^savepoint$/i.test(savepoint[1]!)) savepoints.set(savepoint[2]!, afterCommit.length);
      else afterCommit = afterCommit.slice(0, savepoints.get(savepoint[2]!) ?? afterCommit.length);
    }
    const at = config.indexOf(AFTER_COMMIT);
    const later = at >= 0 ? config.slice(at + AFTER_COMMIT.length).split(AFTER_COMMIT) : [];
    let text = at >= 0 ? config.slice(0, at) : config;
    const commit = text.endsWith(THEN_COMMIT);
    if (commit) text = text.slice(0, -THEN_COMMIT.length);
    if (commit) {
      const after = ['commit', ...afterCommit, ...later];
      afterCommit = [];
      return run(text, params, before, after, 1).then((r) => {
        state = 'committed';
        return r;
      });
    }
    // Outside a transaction the statement commits by itself: what follows it goes right behind it.
    const inTransaction = before.length > 0 || (client as unknown as { _txStatus?: string })._txStatus !== 'I';
    if (!inTransaction && later.length) return run(text, params, [], later, 0);
    afterCommit.push(...later);
    if (before.length || at >= 0) return run(text, params, before, []);
    const name = nameOf(text);
    return name ? query({ text, values: params, name }) : query(text, values);
  } as typeof client.query;
}
