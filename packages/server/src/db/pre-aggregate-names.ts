import { sql, type Kysely } from 'kysely';

// The names of a form's report pre-aggregation (docs/decisions/0074; modules/report/pre-aggregate.ts builds it) and
// its removal, here because form publishing drops it before the form's columns change, below the report module.

/** The pre-aggregation table of a main table (none when the name would be too long). */
export const preAggregateTable = (mainTable: string): string | null => (mainTable.length + 5 <= 63 ? `${mainTable}__agg` : null);
/** Its trigger function (the triggers on the main table go with it: dropped with CASCADE). */
export const preAggregateFunction = (mainTable: string) => `${mainTable}__agg_fn`;

/** Drops the form's pre-aggregation, its triggers and their function (before the form's columns change). */
export async function dropPreAggregate(executor: Kysely<any>, schema: string, mainTable: string): Promise<void> {
  const table = preAggregateTable(mainTable);
  if (!table) return;
  await sql`drop table if exists ${sql.id(schema, table)}`.execute(executor);
  await sql`drop function if exists ${sql.id(schema, preAggregateFunction(mainTable))}() cascade`.execute(executor);
}
