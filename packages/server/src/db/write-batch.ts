import { sql, type AliasedExpression, type Compilable, type CompiledQuery, type ExpressionBuilder, type Kysely, type OperationNodeSource, type RawBuilder } from 'kysely';
import { AFTER_COMMIT, PREPARED, THEN_COMMIT, inlined, pipelinesCommits } from './pipelined-transaction.ts';

// Writes of one action gathered into as few statements as the database allows (docs/decisions/0101, after 0035 and
// 0095): each write is a data-modifying WITH query of one statement, whose SELECT may read what some of them return
// (and call functions such as pg_notify). PostgreSQL runs every data-modifying WITH to completion, read or not; they
// all see the statement's snapshot and none sees another's rows, and foreign keys are checked at the statement's end.
// Two writes that must not meet half way (a row closed and its replacement opened under a unique index) go in two
// statements: `barrier()` starts the next one.

export type Write = Compilable & OperationNodeSource;
type Selection = (eb: ExpressionBuilder<any, never>) => AliasedExpression<unknown, string>;
type Row = Record<string, unknown>;

interface Statement {
  ctes: [string, Write][];
  selections: Selection[];
  /** Called with the statement's row once it ran (in the order they were added). */
  done: ((row: Row) => Promise<void>)[];
  /** NOTIFYs to send once the transaction committed (PostgreSQL: behind its COMMIT, see `notify`). */
  notifies: string[];
}

const empty = (): Statement => ({ ctes: [], selections: [], done: [], notifies: [] });

export class WriteBatch {
  private statements: Statement[] = [empty()];
  private names = 0;
  private readonly afterCommit: boolean;
  constructor(private readonly db: Kysely<any>) {
    this.afterCommit = pipelinesCommits(db);
  }

  private get current(): Statement {
    return this.statements[this.statements.length - 1]!;
  }

  /** A write of the current statement. */
  add(write: Write): void {
    this.current.ctes.push([`w${this.names++}`, write]);
  }

  /** A write whose returned rows the statement's SELECT reads: answers its name there. */
  addNamed(prefix: string, write: Write): string {
    const name = `${prefix}${this.names++}`;
    this.current.ctes.push([name, write]);
    return name;
  }

  /** A fresh name for an expression of the SELECT. */
  alias(prefix: string): string {
    return `${prefix}${this.names++}`;
  }

  /** An expression of the statement's SELECT (reading named writes), and what to do with its row afterwards. */
  select(selection: Selection, done?: (row: Row) => Promise<void>): void {
    this.current.selections.push(selection);
    if (done) this.current.done.push(done);
  }

  /**
   * NOTIFYs of what the statement writes: on PostgreSQL `afterCommit` (a statement of its own, its values inlined,
   * not reading the statement's writes) goes behind the transaction's COMMIT in the same message, since a NOTIFY inside
   * a writing transaction makes the database's notifying commits wait for each other (docs/decisions/0104); PGlite,
   * with one connection, sends `inStatement` in the statement's SELECT as before.
   */
  notify(inStatement: Selection, afterCommit: RawBuilder<unknown>): void {
    if (this.afterCommit) this.current.notifies.push(inlined(afterCommit.compile(this.db)));
    else this.current.selections.push(inStatement);
  }

  /** What is added from now on runs in a statement after the ones so far. */
  barrier(): void {
    if (this.current.ctes.length || this.current.selections.length) this.statements.push(empty());
  }

  /**
   * Runs what was added (one statement, or one per barrier) and starts empty. With `commit` (the caller owns the
   * transaction and runs nothing after this), the last statement goes with the COMMIT in one round trip when nothing
   * waits on its row (docs/decisions/0104): answers whether it did, so that the caller knows the transaction is over.
   */
  async flush(options: { commit?: boolean } = {}): Promise<boolean> {
    const statements = this.statements.filter((s) => s.ctes.length || s.selections.length || s.notifies.length);
    this.statements = [empty()];
    const last = statements.length - 1;
    const commit = !!options.commit && this.afterCommit && last >= 0 && !statements[last]!.done.length;
    for (const [i, s] of statements.entries()) await this.run(s, commit && i === last);
    return commit;
  }

  private async run(s: Statement, commit: boolean): Promise<void> {
    const after = s.notifies.map((n) => AFTER_COMMIT + n).join('');
    const execute = (q: CompiledQuery, prepared: boolean) =>
      this.db.executeQuery<Row>(commit || prepared || after ? { ...q, sql: q.sql + (prepared ? PREPARED : '') + (commit ? THEN_COMMIT : '') + after } : q);
    if (!s.ctes.length && !s.selections.length) {
      await execute(sql`select 1`.compile(this.db), false);
      return;
    }
    if (s.ctes.length === 1 && !s.selections.length) {
      await execute(s.ctes[0]![1].compile(), false);
      return;
    }
    let q: any = this.db;
    for (const [name, write] of s.ctes) q = q.with(name, () => write);
    const selections = s.selections.length ? s.selections : [() => sql<number>`1`.as('done')];
    // Prepared (docs/decisions/0104): an action's statement has the same text for every action of its kind, and its
    // SELECT's columns are expressions of ours, not a table's, so no change of a table alters what it answers.
    const { rows } = await execute(q.selectNoFrom((eb: ExpressionBuilder<any, never>) => selections.map((f) => f(eb))).compile(), true);
    const row = rows[0] ?? {};
    for (const done of s.done) await done(row);
  }
}
