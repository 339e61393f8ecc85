import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { anyDb } from '../business-data/runtime-form.ts';
import { engineSchemaName } from '../../db/database.ts';

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

/** Inserts `rows` into the engine's `table` (an engine table or a form's table) in one statement. */
export async function insertJsonRows(edb: EngineExecutor, engineCode: string, table: string, rows: readonly Row[]): Promise<void> {
  if (!rows.length) return;
  const columns = sql.join(columnsOf(rows).map((c) => sql.id(c)));
  const target = engineTable(engineCode, table);
  await sql`insert into ${target} (${columns}) select ${columns} from json_populate_recordset(null::${target}, ${JSON.stringify(rows)}::json)`.execute(anyDb(edb));
}
