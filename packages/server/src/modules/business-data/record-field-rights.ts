import { AppError } from '../../lib/app-error.ts';
import { defaultValueOf } from './field-values.ts';
import type { RuntimeForm } from './runtime-form.ts';

// Field rights on a save (docs/decisions/0037): a field the caller's permission groups make read-only or hidden keeps
// its value. Sending it back unchanged (the runtime sends what it showed) is fine; a different value is refused with
// 330002 naming the field, and nothing is saved. Sub-table columns are checked row by row (a row keeps its ObjectId).

type Values = Record<string, unknown>;
type Rows = Record<string, Values[]>;

const blank = (v: unknown) => v == null || v === '' || (Array.isArray(v) && v.length === 0);
const same = (a: unknown, b: unknown) => (blank(a) && blank(b)) || JSON.stringify(a) === JSON.stringify(b);

function refuse(displayName: unknown, code: string): never {
  throw new AppError('PermissionFieldReadOnly', { detail: { displayName: String(displayName ?? code), field: code } });
}

export interface WriteBaseline {
  /** The stored values (an edit), or undefined (a new record: the defaults). */
  values: Values | undefined;
  children: Rows;
  who: { userId: string; deptId: string | null };
  now: Date;
}

export function assertWritable(form: RuntimeForm, input: { values: Values; children?: Rows }, baseline: WriteBaseline): void {
  const locked = form.rights.fields;
  for (const field of form.fields) {
    if (!locked.has(field.code) || !Object.hasOwn(input.values, field.code)) continue;
    const before = baseline.values ? baseline.values[field.code] : defaultValueOf(field, baseline.who, baseline.now);
    if (!same(input.values[field.code], before)) refuse(field.options.displayName, field.code);
  }
  for (const grid of form.grids) {
    const rows = input.children?.[grid.code];
    if (!rows) continue;
    const oldRows = baseline.children[grid.code] ?? [];
    if (locked.has(grid.code)) {
      const strip = (r: Values) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'ObjectId'));
      if (rows.length !== oldRows.length || rows.some((r, i) => !same(strip(r), strip(oldRows[i]!)))) refuse(grid.options.displayName, grid.code);
      continue;
    }
    const byId = new Map(oldRows.map((r) => [String(r.ObjectId), r]));
    for (const column of grid.fields) {
      const code = `${grid.code}.${column.code}`;
      if (!locked.has(code)) continue;
      for (const row of rows) {
        if (!Object.hasOwn(row, column.code)) continue;
        const old = row.ObjectId == null ? undefined : byId.get(String(row.ObjectId));
        if (!same(row[column.code], old?.[column.code])) refuse(column.options.displayName, code);
      }
    }
  }
}
