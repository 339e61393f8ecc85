// A record of the workflow core ⇄ its table row, from one map of field → column (docs/decisions/0026: the four
// mappings of workflow.repo.ts were each written twice, once per direction). A column is named alone, or with how its
// value travels: 'date' (a timestamp the driver may hand back as text) or 'json' (stored as JSON text, read parsed).

type How = 'date' | 'json';

/** Every field of the record `R` to a column of the table `T`. */
export type ColumnMap<R, T> = { readonly [K in keyof R]-?: (keyof T & string) | readonly [keyof T & string, How] };

type AnyMap = Readonly<Record<string, string | readonly [string, How]>>;

const columnOf = (spec: string | readonly [string, How]) => (typeof spec === 'string' ? [spec, undefined] as const : spec);
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(v as string));

/** The record a row holds. */
export function recordOf<R>(map: AnyMap, row: object): R {
  const values = row as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(map)) {
    const [column, how] = columnOf(spec);
    out[field] = how === 'date' ? date(values[column]) : values[column];
  }
  return out as R;
}

/** The row that stores a record. */
export function rowOf<T>(map: AnyMap, record: object): T {
  const values = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(map)) {
    const [column, how] = columnOf(spec);
    out[column] = how === 'json' ? JSON.stringify(values[field]) : values[field];
  }
  return out as T;
}
