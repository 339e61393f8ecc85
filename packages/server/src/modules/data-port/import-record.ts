import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { cellToValue, cellText, type Lookups } from './cell-values.ts';
import type { FileRecord, Mapping } from './import-mapping.ts';
import type { RowFaults } from './error-report.ts';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';
import type { RecordRow } from '../business-data/records.repo.ts';

// One file record → the values and sub-table rows a save takes (docs/decisions/0020), and the faults of its cells
// by file row; then the record its key names (Upsert, UpdateOnly).

export interface PreparedRecord {
  values: Record<string, unknown>;
  children: Record<string, Record<string, unknown>[]>;
  keyValue: unknown;
}

/** Faults by file row number. */
export type RecordFaults = Map<number, RowFaults>;

export function faultAt(faults: RecordFaults, rowNo: number): RowFaults {
  let f = faults.get(rowNo);
  if (!f) faults.set(rowNo, (f = { cells: new Map(), general: [] }));
  return f;
}

export function prepareRecord(form: RuntimeForm, record: FileRecord, mapping: Mapping, lookups: Lookups, faults: RecordFaults): PreparedRecord {
  const first = record.rows[0]!;
  const values: Record<string, unknown> = {};
  let keyValue: unknown = null;
  for (const c of record.main) {
    const cell = first.cells[c.index] ?? null;
    if (c.column.system) {
      if (mapping.key === c) keyValue = cellText(cell) || null;
      continue;
    }
    const r = cellToValue(c.column.field!, cell, lookups);
    if ('error' in r) faultAt(faults, first.rowNo).cells.set(c.index, r.error);
    else {
      values[c.column.field!.code] = r.value;
      if (mapping.key === c) keyValue = r.value;
    }
  }
  const children: Record<string, Record<string, unknown>[]> = {};
  const gridColumns = mapping.columns.filter((c) => c.column.grid);
  for (const grid of form.grids) {
    const cols = gridColumns.filter((c) => c.column.grid!.code === grid.code);
    if (!cols.length) continue;
    children[grid.code] = (record.children.get(grid.code) ?? []).map((row) => {
      const out: Record<string, unknown> = {};
      for (const c of cols) {
        const r = cellToValue(c.column.field!, row.cells[c.index] ?? null, lookups);
        if ('error' in r) faultAt(faults, row.rowNo).cells.set(c.index, r.error);
        else out[c.column.field!.code] = r.value;
      }
      return out;
    });
  }
  if (mapping.key && (keyValue == null || keyValue === '')) faultAt(faults, first.rowNo).cells.set(mapping.key.index, '匹配字段不能为空');
  return { values, children, keyValue };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The records whose key column holds `value` (at most 2 read: more than one is a fault). */
export async function recordsByKey(edb: EngineExecutor, form: RuntimeForm, mapping: Mapping, value: unknown): Promise<RecordRow[]> {
  const code = mapping.key!.column.system ?? mapping.key!.column.field!.code;
  if (code === 'ObjectId' && !UUID.test(String(value))) return [];
  return anyDb(edb).selectFrom(form.mainTable).selectAll().where(code, '=', value).limit(2).forUpdate().execute();
}

/**
 * The issues of a refused save (777 detail.issues, or a business error's) as faults of the record's cells:
 * `values.<code>` → that column on the first row; `children.<grid>.<i>.<code>` → that column on the sub-table's
 * i-th row; anything else → the record's first row.
 */
export function faultsOfError(error: unknown, record: FileRecord, mapping: Mapping, faults: RecordFaults, nameOf: (code: string) => string): void {
  const first = record.rows[0]!.rowNo;
  if (!(error instanceof AppError)) throw error;
  const issues = ((error.detail as { issues?: { path: string; message: string }[] } | undefined)?.issues ?? []) as { path: string; message: string }[];
  if (!issues.length) {
    faultAt(faults, first).general.push(error.message);
    return;
  }
  for (const issue of issues) {
    const parts = issue.path.split('.');
    if (parts[0] === 'values') {
      const col = mapping.columns.find((c) => !c.column.grid && c.column.field?.code === parts[1]);
      if (col) faultAt(faults, first).cells.set(col.index, issue.message);
      else faultAt(faults, first).general.push(`${nameOf(parts[1]!)}：${issue.message}`);
    } else if (parts[0] === 'children' && parts.length >= 4) {
      const row = record.children.get(parts[1]!)?.[Number(parts[2])];
      const col = mapping.columns.find((c) => c.column.code === `${parts[1]}.${parts[3]}`);
      if (row && col) faultAt(faults, row.rowNo).cells.set(col.index, issue.message);
      else faultAt(faults, first).general.push(`${nameOf(`${parts[1]}.${parts[3]}`)}：${issue.message}`);
    } else faultAt(faults, first).general.push(`${nameOf(parts[1] ?? '')}：${issue.message}`);
  }
}
