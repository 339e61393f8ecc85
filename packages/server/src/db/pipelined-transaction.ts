import pg from 'pg';

// A transaction's BEGIN and COMMIT ride with its statements on PostgreSQL (docs/decisions/0104). node-postgres sends
// one statement and waits for its answer before the next; over loopback each of those round trips costs both
// processes a socket write and a wake-up, and a transaction held its locks across the COMMIT's own round trip. The
// extended query protocol lets several statements go in one message and end with one Sync (one answer): so
// - the BEGIN that Kysely sends is held back and goes in front of the transaction's first statement (a transaction
//   that runs none costs nothing at all);
// - a statement whose text ends with `THEN_COMMIT` goes with the COMMIT behind it, and the COMMIT Kysely sends after
//   the work is answered here. The caller promises that nothing but that COMMIT follows: a statement after it fails
//   loudly rather than run outside the transaction.
// The server runs the messages in order, and an error skips the rest up to the Sync (a failed statement leaves its
// transaction aborted and open for the ROLLBACK that follows, exactly as before). PGlite ignores the tag: its text is
// a comment, and Kysely commits as usual.

/** Appended to a transaction's last statement: it is sent with the COMMIT (PostgreSQL), a comment elsewhere. */
export const THEN_COMMIT = '\n/* then commit */';

type Result = { command: string; rowCount: number | null; rows: unknown[] };
const done = (command: string): Promise<Result> => Promise.resolve({ command, rowCount: null, rows: [] });

/** One statement with plain statements sent before it and after it in the same message, answered as the statement alone. */
class PipelinedQuery extends (pg.Query as unknown as new (config: { text: string; values?: unknown[]; queryMode?: string }) => any) {
  private completions = 0;
  /** The command tag of the statement sent after (COMMIT answers ROLLBACK when the transaction had already failed). */
  afterCommand: string | undefined;
  constructor(
    text: string,
    values: unknown[] | undefined,
    private readonly before: string | undefined,
    private readonly after: string | undefined,
  ) {
    super({ text, values: values ?? [], queryMode: 'extended' });
  }

  prepare(connection: any): void {
    if (this.before) plain(connection, this.before);
    super.prepare(connection);
  }

  // Query sends its Execute then the Sync here: the statement after goes between them.
  _getRows(connection: any, rows: number | undefined): void {
    connection.execute({ portal: this.portal, rows });
    if (this.after) plain(connection, this.after);
    connection.sync();
  }

  handleCommandComplete(msg: { text: string }, connection: unknown): void {
    const index = this.completions++;
    const own = this.before ? 1 : 0;
    if (index === own) super.handleCommandComplete(msg, connection);
    else if (index > own) this.afterCommand = msg.text;
  }
}

/** Parse, Bind and Execute of a statement without parameters, no Sync. */
function plain(connection: any, text: string): void {
  connection.parse({ text });
  connection.bind({});
  connection.execute({});
}

/**
 * Makes the client hold back `begin` and send it with the next statement, and send a statement tagged `THEN_COMMIT`
 * together with its COMMIT. Install it before any other wrapper of `query` (they see the promises it answers).
 */
export function pipelineTransactions(client: pg.ClientBase): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // 'begin': a BEGIN is held back; 'committed': the tagged statement committed, only Kysely's COMMIT may follow.
  let state: 'none' | 'begin' | 'committed' = 'none';
  const run = (text: string, values: unknown[] | undefined, before: string | undefined, after: string | undefined): Promise<Result> =>
    new Promise((resolve, reject) => {
      const q = new PipelinedQuery(text, values, before, after);
      q.callback = (error: Error | null, result: Result) => {
        if (error) return reject(error);
        if (after && q.afterCommand !== 'COMMIT') return reject(new Error(`the transaction did not commit (${q.afterCommand ?? 'no answer'})`));
        if (after) state = 'committed';
        resolve(result);
      };
      query(q);
    });
  (client as { query: unknown }).query = function (config: unknown, values?: unknown, callback?: unknown) {
    if (typeof config !== 'string' || typeof values === 'function' || callback !== undefined) return query(config, values, callback);
    const params = values as unknown[] | undefined;
    const bare = !params || params.length === 0;
    if (state === 'committed') {
      state = 'none';
      if (bare && (config === 'commit' || config === 'rollback')) return done(config === 'commit' ? 'COMMIT' : 'ROLLBACK');
      return Promise.reject(new Error('a statement after its transaction was committed with its last write'));
    }
    if (config === 'begin' && bare) {
      state = 'begin';
      return done('BEGIN');
    }
    const tagged = config.endsWith(THEN_COMMIT);
    if (state === 'begin') {
      state = 'none';
      // A transaction that ran nothing: nothing to commit or roll back on the server.
      if (bare && (config === 'commit' || config === 'rollback')) return done(config === 'commit' ? 'COMMIT' : 'ROLLBACK');
      return run(config, params, 'begin', tagged ? 'commit' : undefined);
    }
    if (tagged) return run(config, params, undefined, 'commit');
    return query(config, values);
  } as typeof client.query;
}
