import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ColumnDefinition, TableDefinition } from './format.ts';

// Rows as text, the way COPY writes them: each column cast to text by PostgreSQL's own output function, a row a JSON
// array of those texts (null for NULL) in the columns' name order. Read through a cursor in batches, written back in
// batches through `json_array_elements` with each text cast to its column's type by the input function. Works the
// same on PostgreSQL and PGlite (no COPY streams, no pg_dump) — docs/decisions/0127.

/** Output settings that make every text the same on both databases and in every session. */
export async function useCanonicalText(trx: Kysely<any>): Promise<void> {
  for (const [name, value] of [
    ['timezone', 'UTC'],
    ['datestyle', 'ISO, YMD'],
    ['intervalstyle', 'postgres'],
    ['extra_float_digits', '1'],
    ['bytea_output', 'hex'],
  ]) {
    await sql`select set_config(${name}, ${value}, true)`.execute(trx);
  }
}

const MOD = 1n << 256n;

/** The order-free checksum of a table: the sum modulo 2^256 of each row line's SHA-256. */
export class RowChecksum {
  private sum = 0n;
  rows = 0;
  add(line: string): void {
    this.sum = (this.sum + BigInt(`0x${createHash('sha256').update(line).digest('hex')}`)) % MOD;
    this.rows += 1;
  }
  hex(): string {
    return this.sum.toString(16).padStart(64, '0');
  }
}

/** The columns of a table as a backup records them (generated ones left out), and for a form's table its whole definition. */
export async function describeTable(trx: Kysely<any>, schema: string, table: string, label: 'platform' | 'engine', form: boolean): Promise<TableDefinition> {
  const rel = `${quoteIdent(schema)}.${quoteIdent(table)}`;
  const cols = await sql<{ name: string; type: string; not_null: boolean; def: string | null; generated: string }>`
    select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
           pg_get_expr(d.adbin, d.adrelid) as def, a.attgenerated::text as generated
    from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = ${rel}::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`.execute(trx);
  const plain = (c: (typeof cols.rows)[number]): ColumnDefinition => ({ name: c.name, type: c.type, notNull: c.not_null, ...(c.def && !c.generated ? { default: c.def } : {}) });
  const columns = cols.rows.filter((c) => !c.generated).map(plain).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (!form) return { schema: label, table, columns };
  const constraints = await sql<{ name: string; definition: string; kind: string }>`
    select conname as name, pg_get_constraintdef(oid) as definition, contype::text as kind from pg_constraint
    where conrelid = ${rel}::regclass order by contype = 'f', conname`.execute(trx);
  const indexes = await sql<{ definition: string }>`
    select pg_get_indexdef(i.indexrelid) as definition from pg_index i
    where i.indrelid = ${rel}::regclass and not exists (select from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = i.indrelid)
    order by i.indexrelid::regclass::text`.execute(trx);
  return {
    schema: label,
    table,
    columns,
    form: {
      columns: cols.rows.map((c) => ({ ...plain(c), ...(c.generated ? { generated: c.def ?? '' } : {}) })),
      constraints: constraints.rows.filter((c) => c.kind !== 'n').map((c) => ({ name: c.name, definition: c.definition, foreignKey: c.kind === 'f' })),
      indexes: indexes.rows.map((i) => i.definition),
    },
  };
}

/** Streams a table's rows as lines (within the caller's transaction: its snapshot), a batch at a time. */
export async function readLines(trx: Kysely<any>, schema: string, table: string, columns: ColumnDefinition[], where: ReturnType<typeof sql> | undefined, onBatch: (lines: string[]) => Promise<void>): Promise<void> {
  const cursor = `backup_${Math.random().toString(36).slice(2, 10)}`;
  const texts = columns.length ? sql.join(columns.map((c) => sql`${sql.id(c.name)}::text`)) : sql``;
  await sql`declare ${sql.id(cursor)} no scroll cursor for select array[${texts}]::text[] as r from ${sql.id(schema, table)} ${where ? sql`where ${where}` : sql``}`.execute(trx);
  try {
    for (;;) {
      const batch = await sql<{ r: (string | null)[] }>`fetch forward 200 from ${sql.id(cursor)}`.execute(trx);
      if (!batch.rows.length) break;
      await onBatch(batch.rows.map((row) => JSON.stringify(row.r ?? [])));
    }
  } finally {
    await sql`close ${sql.id(cursor)}`.execute(trx);
  }
}

/**
 * Writes lines into a table, each text cast to its column's type; identity columns take the recorded values. With
 * `skipConflicts` a row that collides with one already there is left out. Answers how many rows went in.
 */
export async function insertLines(trx: Kysely<any>, schema: string, table: string, columns: ColumnDefinition[], lines: string[], skipConflicts = false): Promise<number> {
  if (!lines.length) return 0;
  const names = sql.join(columns.map((c) => sql.id(c.name)));
  const values = sql.join(columns.map((c, i) => sql`(r.value->>${sql.lit(i)})::${sql.raw(safeType(c.type))}`));
  const result = await sql`insert into ${sql.id(schema, table)} (${names}) overriding system value select ${values} from json_array_elements(${`[${lines.join(',')}]`}::json) as r ${skipConflicts ? sql`on conflict do nothing` : sql``}`.execute(trx);
  return Number(result.numAffectedRows ?? lines.length);
}

/** A type name as format_type writes it; anything else is refused (it is put into SQL). */
export function safeType(type: string): string {
  if (!/^[a-z_][a-z0-9_ ."]*(\(\d+(,\d+)?\))?( with(out)? time zone)?(\[\])*$/i.test(type)) throw new Error(`unexpected column type ${type}`);
  return type;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
