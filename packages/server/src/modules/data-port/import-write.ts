import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { newId } from '../../lib/ids.ts';
import { AppError } from '../../lib/app-error.ts';
import { changesOf } from '../business-data/data-log.ts';
import { toColumn } from '../business-data/field-values.ts';
import { checkInput } from '../business-data/record-input.ts';
import { applyFormulas } from '../business-data/record-formulas.ts';
import { nextSeqNo, recordName } from '../business-data/record-numbers.ts';
import { assertCanEdit, nextStatus } from '../business-data/record-policy.ts';
import { presentChildRow, presentValues } from '../business-data/record.presenter.ts';
import { childRowsOf, duplicateExists, replaceChildRows, updateRecord, type RecordRow } from '../business-data/records.repo.ts';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';
import type { PreparedRecord } from './import-record.ts';

// Writing one imported record inside its batch's transaction, the way a form save writes it (docs/decisions/0007,
// 0020): the same value check (record-input.ts checkInput: value schemas, required fields, rules), formulas, NoRepeat,
// sequence number, name, status transition, edit rights and data log. Every check runs before the record's first
// write, so a refused record leaves nothing behind.

/**
 * New records, their sub-table rows and data-log rows of one batch, written as multi-row inserts. The batch
 * flushes it before every read that must see them (key lookups, NoRepeat checks) and before it commits.
 */
export class InsertBuffer {
  private main: Record<string, unknown>[] = [];
  private children = new Map<string, Record<string, unknown>[]>();
  private logs: { id: string; schema_code: string; object_id: string; user_id: string; changes: string }[] = [];
  constructor(private readonly form: RuntimeForm) {}

  get size(): number {
    return this.main.length + this.logs.length;
  }

  async flush(edb: EngineExecutor): Promise<void> {
    // Rows per statement stay well under the 65535 bind parameters of one statement.
    const chunks = <T>(rows: T[], width: number) => {
      const size = Math.max(1, Math.floor(30000 / Math.max(1, width)));
      const out: T[][] = [];
      for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
      return out;
    };
    for (const rows of chunks(this.main, this.form.fields.length + 11)) await anyDb(edb).insertInto(this.form.mainTable).values(rows).execute();
    for (const grid of this.form.grids) {
      for (const rows of chunks(this.children.get(grid.code) ?? [], grid.fields.length + 3)) await anyDb(edb).insertInto(grid.table).values(rows).execute();
    }
    for (const rows of chunks(this.logs, 5)) await edb.insertInto('form_data_logs').values(rows).execute();
    this.main = [];
    this.children.clear();
    this.logs = [];
  }

  addMain(row: Record<string, unknown>) {
    this.main.push(row);
  }

  addChildren(grid: string, rows: Record<string, unknown>[]) {
    this.children.set(grid, [...(this.children.get(grid) ?? []), ...rows]);
  }

  addLog(objectId: string, userId: string, changes: unknown[]) {
    this.logs.push({ id: newId(), schema_code: this.form.node.code, object_id: objectId, user_id: userId, changes: JSON.stringify(changes) });
  }
}

export interface Who {
  userId: string;
  deptId: string | null;
}

async function childrenOf(edb: EngineExecutor, form: RuntimeForm, objectId: string) {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const grid of form.grids) out[grid.code] = (await childRowsOf(edb, grid, [objectId])).map((r) => presentChildRow(grid, r));
  return out;
}

/** Inserts (old undefined) or updates `old`; throws AppError (777 with issues, or a business error) when refused. */
export async function writeImported(edb: EngineExecutor, buffer: InsertBuffer, form: RuntimeForm, who: Who, input: PreparedRecord, submit: boolean, old: RecordRow | undefined, now: Date): Promise<string> {
  if (old) assertCanEdit(form, old, who.userId);
  const status = nextStatus(old ? Number(old.Status) : null, submit);
  const oldValues = old ? presentValues(form.fields, old) : undefined;
  const oldChildren = old ? await childrenOf(edb, form, String(old.ObjectId)) : {};
  const deptId = old ? ((old.OwnerDeptId as string | null) ?? null) : who.deptId;
  const checked = checkInput(form, { values: input.values, children: input.children }, {
    isNew: !old,
    current: oldValues,
    currentChildCounts: new Map(Object.entries(oldChildren).map(([k, v]) => [k, v.length])),
    who: { userId: who.userId, deptId },
    now,
  });
  const objectId = old ? String(old.ObjectId) : newId();
  applyFormulas(form, checked, { values: oldValues, children: oldChildren }, now);
  const merged = { ...oldValues, ...checked.values };
  const noRepeat = form.fields.filter((f) => f.options.noRepeat === true);
  if (noRepeat.length && buffer.size) await buffer.flush(edb);
  for (const field of noRepeat) {
    const value = merged[field.code];
    if (value == null || value === '') continue;
    if (await duplicateExists(edb, form, field.code, value, objectId)) {
      const message = String(field.options.noRepeatTipMessage || '') || '该值已存在，不能重复';
      throw new AppError('BizObjectDuplicate', { message, detail: { field: field.code, issues: [{ path: `values.${field.code}`, message }] } });
    }
  }
  const seqNo = old ? ((old.SeqNo as string | null) ?? null) : await nextSeqNo(edb, form, merged, now);
  const system = old ? { ...old, Status: status } : { ObjectId: objectId, SeqNo: seqNo, Status: status, CreatedBy: who.userId, OwnerId: who.userId, OwnerDeptId: deptId, CreatedTime: now };
  const columns: Record<string, unknown> = { Name: recordName(form, merged, system), Status: status, ModifiedBy: who.userId, ModifiedTime: now };
  for (const field of form.fields) if (field.code in checked.values) columns[field.code] = toColumn(field, checked.values[field.code]);
  if (old) await updateRecord(edb, form, objectId, columns);
  else buffer.addMain({ ...columns, ObjectId: objectId, SeqNo: seqNo, CreatedBy: who.userId, OwnerId: who.userId, OwnerDeptId: deptId, CreatedTime: now, WorkflowInstanceId: null });
  for (const grid of form.grids) {
    const rows = checked.children.get(grid.code);
    if (!rows) continue;
    const written = rows.map((row, i) => ({
      ObjectId: newId(),
      ParentObjectId: objectId,
      SortKey: i,
      ...Object.fromEntries(grid.fields.map((f) => [f.code, toColumn(f, row.values[f.code])])),
    }));
    if (old) await replaceChildRows(edb, grid, objectId, written);
    else if (written.length) buffer.addChildren(grid.code, written);
  }
  if (form.definition.attributes.enableDataLog) {
    const changes = changesOf(form, oldValues, checked, oldChildren);
    if (changes.length) buffer.addLog(objectId, who.userId, changes);
  }
  return objectId;
}
