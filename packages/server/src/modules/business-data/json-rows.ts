import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { anyDb } from '../business-data/runtime-form.ts';
import { engineSchemaName } from '../../db/database.ts';
import { counterBump, type Numbering } from './record-numbers.ts';

// Set-wise writes of an import batch (issue 26, docs/decisions/0081): the rows of one table travel as ONE JSON text
// parameter and the database spreads them into the table's row type (json_populate_recordset), so a batch of any
// size is one short statement — no per-value bind parameters for the driver to send and the database to parse, no
// SQL text that grows with the batch, the same on PostgreSQL and PGlite.

// A value goes into the JSON as the save holds it: a list stays a JSON array (→ text[]), a JSON value stays JSON
// (→ jsonb), a moment is its ISO text (→ timestamptz).

type Row = Record<string, unknown>;

/** The union of the rows' keys, in first-seen order (a key a row lacks is NULL in that row). */
function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key in row) seen.add(key);
  return [...seen];
}

/** An engine table (or a form's table) named with its schema: raw SQL is not qualified by the engine's plugin. */
export const engineTable = (engineCode: string, table: string) => sql.id(engineSchemaName(engineCode), table);

/** Rows for one table of the engine (an engine table or a form's table). */
export interface TableRows {
  table: string;
  rows: readonly Row[];
  /**
   * Columns every row holds with the same value (a batch's saver, status and time): sent once beside the rows, not
   * once a row (with the data log's form and saver: 161 → 124 kB for a CreateBizObjects of 100), and spread into
   * the row type the same way.
   */
  shared?: Row;
}

// The data log's rows carry their changes as a JSON value for a jsonb column: read as json, each row's value would be
// extracted as text and parsed again into jsonb; read as jsonb the text is parsed once (100 log rows of the peer
// workload: 2.8 → 2.1 ms in PostgreSQL). Tables of plain columns stay json, which was as fast or faster for them.
const READ_AS_JSONB = new Set(['form_data_logs']);

/** The rows of `table` spread into its row type, from one JSON text. */
function rowsFrom(target: ReturnType<typeof engineTable>, table: string, rows: readonly Row[]) {
  return READ_AS_JSONB.has(table)
    ? sql`jsonb_populate_recordset(null::${target}, ${JSON.stringify(rows)}::jsonb)`
    : sql`json_populate_recordset(null::${target}, ${JSON.stringify(rows)}::json)`;
}

/** A part's columns (`leave` left out) and what each is selected as: `r.<col>` from the rows, `s.<col>` from the shared row. */
function selectionOf(engineCode: string, part: TableRows, leave?: string) {
  const shared = part.shared ? Object.keys(part.shared).filter((c) => c !== leave) : [];
  const own = columnsOf(part.rows).filter((c) => c !== leave && !shared.includes(c));
  const target = engineTable(engineCode, part.table);
  return {
    target,
    columns: [...own, ...shared].map((c) => sql.id(c)),
    selected: [...own.map((c) => sql`r.${sql.id(c)}`), ...shared.map((c) => sql`s.${sql.id(c)}`)],
    sharedFrom: part.shared ? sql`, json_populate_record(null::${target}, ${JSON.stringify(part.shared)}::json) s` : sql``,
  };
}

/** The insert of one table's rows from one JSON text, as SQL to run or to place in a WITH. */
function insertFrom(engineCode: string, part: TableRows) {
  const { target, columns, selected, sharedFrom } = selectionOf(engineCode, part);
  return sql`insert into ${target} (${sql.join(columns)}) select ${sql.join(selected)} from ${rowsFrom(target, part.table, part.rows)} r${sharedFrom}`;
}

/** The first part's insert numbered from the counter CTE `c` (its value is the batch's last number). */
function numberedInsertFrom(engineCode: string, part: TableRows, numbering: Numbering) {
  const { target, columns, selected, sharedFrom } = selectionOf(engineCode, part, numbering.column);
  const n = sql`(c.value - ${part.rows.length} + r.ordinality)::text`;
  const number = sql`${numbering.prefix}::text || lpad(${n}, greatest(length(${n}), ${numbering.digits}::int), '0') || ${numbering.suffix}::text`;
  return sql`insert into ${target} (${sql.join([...columns, sql.id(numbering.column)])}) select ${sql.join(selected)}, ${number} from c, ${rowsFrom(target, part.table, part.rows)} with ordinality r${sharedFrom}`;
}

/**
 * Inserts the rows of several tables in ONE statement (docs/decisions/0095): each table's insert is a data-modifying
 * WITH, so a save's records, their sub-table rows and their data-log rows are one round trip. The parts go in the
 * order given; a sub-table's rows may follow their records' (the foreign keys are checked at the statement's end).
 * Tables without rows are left out. With `numbering`, the counter's bump is one more WITH of the same statement and
 * the answer is the counter's value after it (the last row's number), else null.
 */
export async function insertJsonTables(edb: EngineExecutor, engineCode: string, parts: readonly TableRows[], numbering?: Numbering): Promise<number | null> {
  const filled = parts.filter((p) => p.rows.length);
  if (!filled.length) return null;
  const withs = [];
  let answer = sql`select null as value`;
  if (numbering) {
    withs.push(sql`c as (${counterBump(engineCode, numbering.counter, filled[0]!.rows.length)})`);
    withs.push(sql`w0 as (${numberedInsertFrom(engineCode, filled[0]!, numbering)})`);
    answer = sql`select value from c`;
  }
  for (const [i, part] of filled.entries()) if (!numbering || i > 0) withs.push(sql`${sql.id(`w${i}`)} as (${insertFrom(engineCode, part)})`);
  const { rows } = await sql<{ value: number | string | null }>`with ${sql.join(withs)} ${answer}`.execute(anyDb(edb));
  return rows[0]?.value == null ? null : Number(rows[0].value);
}

/** Inserts `rows` into the engine's `table` (an engine table or a form's table) in one statement. */
export async function insertJsonRows(edb: EngineExecutor, engineCode: string, table: string, rows: readonly Row[]): Promise<void> {
  await insertJsonTables(edb, engineCode, [{ table, rows }]);
}
