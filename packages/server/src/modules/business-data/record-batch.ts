import { newId } from '../../lib/ids.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { activeTreeParent } from '../form-design/tree-structure.ts';
import { changesOf, type DataChange } from './data-log.ts';
import { checkSubmitOnSave, deriveOnSave } from './data-link-save.ts';
import { toColumn } from './field-values.ts';
import { checkInput, type CheckedChildRow, type CheckedInput } from './record-input.ts';
import { applyRollups } from './record-rollups.ts';
import { afterRecordsSaved } from './record-hooks-port.ts';
import { numberNewRecords } from './record-numbers.ts';
import { nextStatus } from './record-policy.ts';
import { claimRecordFiles, hasFileFields } from './record-files.ts';
import { lockFormData, mainDepartmentOf, takenValues } from './records.repo.ts';
import { insertJsonTables } from './json-rows.ts';
import type { DataField, GridField, RuntimeForm } from './runtime-form.ts';
import { checkFieldValues, type KnownReferences } from './value-references.ts';
import { resolvePresentedValues } from './presented-values-port.ts';

// Set-wise writes (docs/decisions/0033): a batch of new records in the caller's transaction costs a handful of
// statements, not a handful per record. Each record goes through the checks a save makes (values, required fields,
// items, users and departments, files, association fills, data links, formulas, rollups, submit rules) as
// record.service.ts saveRecordIn does for a new record; then the batch is written at once: the saver's department read
// once, one counter bump for every sequence number, one query per NoRepeat field, one insert of the records,
// their sub-table rows and their data-log rows (docs/decisions/0095), and the business rules and rollup dependants through the hooks' batch
// call. Workflow forms (each record starts a flow), singletons and tree forms save record by record.

type Row = Record<string, unknown>;

/** A new record of a batch: its values and sub-table rows as a save takes them, and its owner when not the saver. */
export interface NewRecordInput {
  values: Row;
  children?: Record<string, Row[]>;
  owner?: { userId: string; deptId: string | null } | null;
}

export interface InsertRecordsOptions {
  /** Users and departments the batch already knows to exist (docs/decisions/0029). */
  knownReferences?: KnownReferences;
  /** Runs record `index`'s checks: the caller may name the record in the error it throws (the open API does). */
  checking?: <T>(index: number, work: () => Promise<T>) => Promise<T>;
}

/** Whether the form's new records can be written as one batch (see above). */
export function insertsSetWise(form: RuntimeForm): boolean {
  return !form.isWorkflow && !form.isSingleton && !activeTreeParent(form.definition, form.node.code);
}

interface Checked {
  objectId: string;
  checked: CheckedInput;
  merged: Row;
}

/** A new record's checks and derived values, as saveRecordIn makes them (nothing written yet). */
async function checkNewRecord(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, input: NewRecordInput, o: { submit: boolean; now: Date; deptId: string | null; known?: KnownReferences }): Promise<Checked> {
  const checked = checkInput(form, input, { isNew: true, currentChildCounts: new Map(), who: { userId: ctx.userId, deptId: o.deptId }, now: o.now });
  const stored = { values: undefined, children: {} };
  const objectId = newId();
  await resolvePresentedValues(edb, ctx, form, checked, undefined, objectId);
  await checkFieldValues(edb, form, checked, stored, o.known);
  if (hasFileFields(form)) await claimRecordFiles(edb, form, objectId, ctx.userId, checked);
  await deriveOnSave(edb, ctx, form, checked, stored, { now: o.now, submit: false });
  await applyRollups(edb, form, checked, stored, objectId, o.now);
  if (o.submit) await checkSubmitOnSave(edb, ctx, form, checked, stored, o.now);
  return { objectId, checked, merged: { ...checked.values } };
}

/** The 250011 of a NoRepeat field whose value another live record holds. */
export function duplicateError(field: DataField): AppError {
  const message = String(field.options.noRepeatTipMessage || '') || `${String(field.options.displayName ?? field.code)}的值已存在，不能重复`;
  return new AppError('BizObjectDuplicate', { message, detail: { field: field.code, issues: [{ path: `values.${field.code}`, message }] } });
}

/** NoRepeat: no value the form's live records hold, nor one an earlier record of the batch takes (one query a field). */
async function refuseDuplicates(edb: EngineExecutor, form: RuntimeForm, records: Checked[], checking: NonNullable<InsertRecordsOptions['checking']>): Promise<void> {
  const fields = form.fields.filter((f) => f.options.noRepeat === true);
  const filled = (value: unknown) => value != null && value !== '';
  const taken = new Map<string, Set<string>>();
  for (const field of fields) {
    const values = records.map((r) => r.merged[field.code]).filter(filled).map(String);
    taken.set(field.code, values.length ? await takenValues(edb, form, field.code, values) : new Set());
  }
  for (const [i, record] of records.entries()) {
    for (const field of fields) {
      const value = record.merged[field.code];
      if (!filled(value)) continue;
      const seen = taken.get(field.code)!;
      if (seen.has(String(value))) await checking(i, () => Promise.reject(duplicateError(field)));
      seen.add(String(value));
    }
  }
}

/** How a value is written: as a Kysely parameter (toColumn), or as itself inside a JSON text of rows (json-rows.ts). */
type AsColumn = (field: DataField, value: unknown) => unknown;
/** A value as it travels in a JSON text of rows: the table's row type converts it (docs/decisions/0081). */
export const asJsonValue: AsColumn = (_field, value) => value ?? null;

/** A save's main-table columns besides the system ones it sets on create. */
export function recordColumns(form: RuntimeForm, checked: CheckedInput, name: string, status: number, userId: string, now: Date, column: AsColumn = toColumn): Row {
  const columns: Row = { Name: name, Status: status, ModifiedBy: userId, ModifiedTime: now };
  for (const field of form.fields) if (field.code in checked.values) columns[field.code] = column(field, checked.values[field.code]);
  return columns;
}

/** A record's sub-table rows as stored: a row keeps its id when `keep` holds it, else takes a new one. */
export function childRowsFor(grid: GridField, parentId: string, rows: CheckedChildRow[], keep: ReadonlySet<string> = new Set(), column: AsColumn = toColumn): Row[] {
  return rows.map((row, i) => {
    const out: Row = { ObjectId: row.objectId && keep.has(row.objectId) ? row.objectId : newId(), ParentObjectId: parentId, SortKey: i };
    for (const f of grid.fields) out[f.code] = column(f, row.values[f.code]);
    return out;
  });
}

/** A new record's changes for its data log (its values and sub-table rows as changes from nothing), or none when it logs nothing. */
function newRecordChanges(form: RuntimeForm, checked: CheckedInput): DataChange[] | undefined {
  if (!form.definition.attributes.enableDataLog) return undefined;
  const changes = changesOf(form, undefined, checked, {});
  return changes.length ? changes : undefined;
}

/** A new record's data-log row, or none when it logs nothing. */
export function newRecordLog(form: RuntimeForm, objectId: string, userId: string, checked: CheckedInput): Row | undefined {
  const changes = newRecordChanges(form, checked);
  return changes && { id: newId(), schema_code: form.node.code, object_id: objectId, user_id: userId, changes };
}

/**
 * New records of a form that `insertsSetWise`, in the caller's transaction, all or nothing: Effective when `submit`,
 * else Drafts. Answers their ids in order, and the stored files the business rules removed on the way (their bytes go
 * after the commit). A refused record throws its catalogue error through `checking`; nothing is written before every
 * record has passed.
 */
export async function insertRecordsIn(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, inputs: NewRecordInput[], submit: boolean, options: InsertRecordsOptions = {}): Promise<{ objectIds: string[]; dropped: string[] }> {
  if (!insertsSetWise(form)) throw new Error(`form ${form.node.code} saves its new records one by one`);
  if (!inputs.length) return { objectIds: [], dropped: [] };
  const now = new Date();
  const status = nextStatus(null, submit);
  const checking = options.checking ?? (<T>(_i: number, work: () => Promise<T>) => work());
  // NoRepeat checks must see concurrent saves of the same form: the form's data lock, as a single save takes it.
  if (form.fields.some((f) => f.options.noRepeat === true)) await lockFormData(edb, ctx.engineCode, form.node.code);
  const deptId = await mainDepartmentOf(edb, ctx.userId, ctx.context);
  const records: Checked[] = [];
  for (const [i, input] of inputs.entries()) {
    records.push(await checking(i, () => checkNewRecord(edb, ctx, form, input, { submit, now, deptId, known: options.knownReferences })));
  }
  await refuseDuplicates(edb, form, records, checking);
  const systemOf = (i: number, seqNo: string | null) => {
    const owner = inputs[i]!.owner;
    return { ObjectId: records[i]!.objectId, SeqNo: seqNo, Status: status, CreatedBy: ctx.userId, OwnerId: owner?.userId ?? ctx.userId, OwnerDeptId: owner ? owner.deptId : deptId, CreatedTime: now };
  };
  // The numbers are formed by the insert when no record's Name holds its number (one round trip fewer, 0095).
  const { numbering, seqNos, names } = await numberNewRecords(edb, ctx.engineCode, form, records.map((r, i) => ({ values: r.merged, system: (seqNo) => systemOf(i, seqNo) })), now);
  const main: Row[] = [];
  const children = new Map<string, Row[]>(form.grids.map((g) => [g.code, []]));
  const logs: Row[] = [];
  // The columns of recordColumns + systemOf (field codes are never system names). What every record shares — the
  // saver, status, time, and the owner when none is named — is sent once (json-rows.ts TableRows.shared); each row is
  // built in one go with the same keys in the same order: no spreads, one object shape for JSON.stringify.
  const nowText = now.toISOString();
  const owned = inputs.some((input) => input.owner);
  const shared: Row = { Status: status, CreatedBy: ctx.userId, ModifiedBy: ctx.userId, CreatedTime: nowText, ModifiedTime: nowText };
  if (!owned) Object.assign(shared, { OwnerId: ctx.userId, OwnerDeptId: deptId });
  for (const [i, { objectId, checked }] of records.entries()) {
    const row: Row = { ObjectId: objectId, Name: names[i]!, SeqNo: seqNos[i]! };
    if (owned) {
      const owner = inputs[i]!.owner;
      row.OwnerId = owner?.userId ?? ctx.userId;
      row.OwnerDeptId = owner ? owner.deptId : deptId;
    }
    for (const field of form.fields) if (field.code in checked.values) row[field.code] = asJsonValue(field, checked.values[field.code]);
    main.push(row);
    for (const grid of form.grids) {
      const rows = checked.children.get(grid.code);
      if (rows?.length) children.get(grid.code)!.push(...childRowsFor(grid, objectId, rows, undefined, asJsonValue));
    }
    // The log's form and saver are the batch's: sent once (shared, below).
    const changes = newRecordChanges(form, checked);
    if (changes) logs.push({ id: newId(), object_id: objectId, changes });
  }
  // The records, their sub-table rows and their data-log rows (and the numbers' counter): one statement (0095).
  await insertJsonTables(edb, ctx.engineCode, [
    { table: form.mainTable, rows: main, shared },
    ...form.grids.map((g) => ({ table: g.table, rows: children.get(g.code)! })),
    { table: 'form_data_logs', rows: logs, shared: { schema_code: form.node.code, user_id: ctx.userId } },
  ], numbering);
  // Business rules of the records that became effective; rollups of other forms that read them (docs/decisions/0015).
  const dropped = await afterRecordsSaved(edb, ctx, form, records.map((r) => ({ objectId: r.objectId, before: undefined, status, values: r.merged })));
  return { objectIds: records.map((r) => r.objectId), dropped };
}
