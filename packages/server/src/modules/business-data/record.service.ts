import type { contracts } from '@tritium/shared';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { changesOf, writeDataLog } from './data-log.ts';
import { defaultValueOf } from './field-values.ts';
import { checkInput, type CheckedChildRow } from './record-input.ts';
import { checkSubmitOnSave, deriveOnLoad, deriveOnSave } from './data-link-save.ts';
import { checkFieldValues, type KnownReferences } from './value-references.ts';
import { resolvePresentedValues, withoutPresentedValues } from './presented-values-port.ts';
import { applyRollups } from './record-rollups.ts';
import { checkTreeSave } from './record-tree.ts';
import { afterRecordSaved, beforeRecordRemoved } from './record-hooks-port.ts';
import { formScripts, submitWithScript } from './form-scripts-port.ts';
import { numberedSeqNo, numberNewRecords, recordName } from './record-numbers.ts';
import { asJsonValue, childRowsFor, duplicateError, newRecordLog, recordColumns } from './record-batch.ts';
import { insertJsonTables } from './json-rows.ts';
import { actionsFor, assertMayChange, assertRemovable, canReadRecord, mayChange, nextStatus } from './record-policy.ts';
import { presentChildRow, presentSystem, presentValues, visibleFields, visibleGrids } from './record.presenter.ts';
import { assertWritable } from './record-field-rights.ts';
import { assertCan } from '../permission/form-rights.ts';
import {
  childRowsOf, countRecords, deleteRecord, duplicateExists, findFirstRecord, findRecord, lockFormData,
  mainDepartmentOf, replaceChildRows, updateRecord, type RecordRow,
} from './records.repo.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from './runtime-form.ts';
import { deleteFiles } from '../files/files.repo.ts';
import {
  claimRecordFiles, copyRecordFiles, deleteStoredBytes, dropRecordFiles, dropUnreferencedFiles, hasFileFields, type RecordFilesDeps,
} from './record-files.ts';

// The form runtime (calls.md §7: POST /v1/form/loaddata, /v1/form/action/execute; docs/decisions/0007).

type ExecuteBody = { schemaCode: string; actionCode: (typeof contracts.BIZ_EXECUTE_ACTIONS)[number]; objectId?: string; values?: Record<string, unknown>; children?: Record<string, Record<string, unknown>[]> };
type Children = Record<string, Record<string, unknown>[]>;

async function childrenOf(edb: EngineExecutor, form: RuntimeForm, objectId: string): Promise<Children> {
  const out: Children = {};
  for (const grid of form.grids) out[grid.code] = (await childRowsOf(edb, grid, [objectId])).map((r) => presentChildRow(grid, r));
  return out;
}

/**
 * A record as the caller may see it (or a new one's defaults): hidden fields and sub-tables left out, the rights'
 * read-only fields named in `fieldRights` (docs/decisions/0037).
 */
export async function loadData(ctx: NodeContext, body: { schemaCode: string; objectId?: string }): Promise<contracts.LoadDataResult> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const row = body.objectId ? await findRecord(edb, form, body.objectId) : form.isSingleton ? await findFirstRecord(edb, form) : undefined;
  if (row ? !(await canReadRecord(edb, form, row, ctx.userId)) : body.objectId) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
  const may = row ? { edit: await mayChange(edb, form, row, ctx.userId, 'edit'), remove: await mayChange(edb, form, row, ctx.userId, 'delete') } : { edit: false, remove: false };
  const base = { schemaCode: form.node.code, version: form.version, actions: actionsFor(form, row, may), isWorkflow: form.isWorkflow, fieldRights: Object.fromEntries(form.rights.fields) };
  const fields = visibleFields(form);
  if (row) {
    const children = await childrenOf(edb, { ...form, grids: visibleGrids(form) }, String(row.ObjectId));
    return scripted(ctx, form, await deriveOnLoad(ctx, form, { ...base, isNew: false, values: presentValues(fields, row), system: presentSystem(row), children, status: Number(row.Status) }), String(row.ObjectId));
  }
  const now = new Date();
  const deptId = await mainDepartmentOf(edb, ctx.userId, ctx.context);
  const values = Object.fromEntries(fields.map((f) => [f.code, defaultValueOf(f, { userId: ctx.userId, deptId }, now)]));
  const system = presentSystem({ Name: '', Status: BizObjectStatus.Draft, CreatedBy: ctx.userId, OwnerId: ctx.userId, OwnerDeptId: deptId });
  return scripted(ctx, form, await deriveOnLoad(ctx, form, { ...base, isNew: true, values, system, children: Object.fromEntries(visibleGrids(form).map((g) => [g.code, []])), status: BizObjectStatus.Draft }));
}

/** The form's `onLoad` script, when it has one, may change the values the form answers (docs/decisions/0118). */
async function scripted(ctx: NodeContext, form: RuntimeForm, loaded: contracts.LoadDataResult, objectId?: string): Promise<contracts.LoadDataResult> {
  const edb = engineOf(ctx);
  if (!(await formScripts().hasServerScript(edb, ctx, form.node.code))) return loaded;
  return formScripts().onLoad(edb, ctx, form, objectId ? { ...loaded, objectId } : loaded);
}

/** Runs `work` in one transaction of the engine; inside, only its executor is used (stack.md, docs/decisions/0001). */
function inTransaction<T>(ctx: NodeContext, work: (edb: EngineExecutor) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute((trx) => work(engineDb(trx as unknown as Db, ctx.engineCode)));
}

const required = (objectId: string | undefined, action: string): string => {
  if (!objectId) throw parameterError([{ path: 'objectId', message: `${action}须指定数据` }]);
  return objectId;
};

/** Starts the workflow of a saved Draft record in the same transaction (the workflow module supplies it). */
export type StartWorkflow = (edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, objectId: string) => Promise<{ status: number }>;

/**
 * `files`: the file store, for the bytes of the files a save drops or a copy duplicates (docs/decisions/0008).
 * `startWorkflow`: Submit on a workflow form saves the record as a Draft and starts its flow, in one transaction.
 */
export async function execute(ctx: NodeContext, body: ExecuteBody, files: RecordFilesDeps, startWorkflow?: StartWorkflow): Promise<contracts.ExecuteResultOutput> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  if (body.actionCode === 'Remove') return removeRecord(ctx, files, form, required(body.objectId, '删除'));
  if (body.actionCode === 'Copy') return copyRecord(ctx, files, form, required(body.objectId, '复制'));
  if (body.actionCode === 'Print' || body.actionCode === 'Close') return readOnlyAction(ctx, form, body.objectId, body.actionCode);
  const submit = body.actionCode !== 'Save';
  const input = { objectId: body.objectId, submit, values: body.values ?? {}, children: body.children };
  if (!submit || !form.isWorkflow) return saveRecord(ctx, files, form, input, body.actionCode);
  let dropped: string[] = [];
  const result = await inTransaction(ctx, async (edb) => {
    const script = await submitWithScript(edb, ctx, form, { actionName: body.actionCode, objectId: input.objectId, values: input.values, children: input.children });
    const submitted = await submitIn(edb, ctx, form, { ...input, values: script.values, children: script.children }, startWorkflow);
    dropped = submitted.dropped;
    return withData(submitted.result, script.outcome?.responded);
  });
  await deleteStoredBytes(files, dropped);
  return result;
}

/**
 * Submit in the caller's transaction: a data form's record becomes Effective; a workflow form's is saved as a Draft
 * and its flow started (a record already in a flow is not submitted again). Answers the stored files dropped.
 */
export async function submitIn(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, input: SaveInput, startWorkflow?: StartWorkflow): Promise<SavedRecord> {
  if (!form.isWorkflow) return saveRecordIn(edb, ctx, form, { ...input, submit: true });
  if (!startWorkflow) throw new AppError('WorkflowSubmitNotSupported', { detail: { schemaCode: form.node.code } });
  const saved = await saveRecordIn(edb, ctx, form, { ...input, submit: true }, { status: (current) => draftOnly(current) });
  const started = await startWorkflow(edb, ctx, form, saved.result.objectId);
  return { ...saved, result: { ...saved.result, status: started.status } };
}

function draftOnly(current: number | null): number {
  if (current !== null && current !== BizObjectStatus.Draft) throw new AppError('BizObjectActionNotAllowed', { detail: { status: current } });
  return BizObjectStatus.Draft;
}

/**
 * Print and Close change nothing: Print answers the record the print page shows (it must exist and be readable),
 * Close answers the record as it is (or nothing, for a form closed before its first save).
 */
async function readOnlyAction(ctx: NodeContext, form: RuntimeForm, objectId: string | undefined, action: 'Print' | 'Close'): Promise<contracts.ExecuteResultOutput> {
  const id = action === 'Print' ? required(objectId, '打印') : objectId;
  if (!id) return { objectId: null, status: null, seqNo: null, name: null };
  const row = await findRecord(engineOf(ctx), form, id);
  if (!row || !(await canReadRecord(engineOf(ctx), form, row, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId: id } });
  if (action === 'Print') assertCan(form.rights, 'print');
  return { objectId: String(row.ObjectId), status: Number(row.Status), seqNo: (row.SeqNo as string | null) ?? null, name: String(row.Name ?? '') };
}

async function removeRecord(ctx: NodeContext, files: RecordFilesDeps, form: RuntimeForm, objectId: string) {
  let dropped: string[] = [];
  const result = await inTransaction(ctx, async (edb) => {
    const row = await findRecord(edb, form, objectId, { forUpdate: true });
    if (!row || !(await canReadRecord(edb, form, row, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId } });
    await assertMayChange(edb, form, row, ctx.userId, 'delete');
    assertRemovable(row);
    await submitWithScript(edb, ctx, form, { actionName: 'Remove', objectId, values: {} });
    const removal = await beforeRecordRemoved(edb, ctx, form, row);
    const removed = await deleteRecord(edb, form, objectId);
    dropped = await dropRecordFiles(edb, form, objectId);
    dropped.push(...(await removal.afterRemoved()));
    return { objectId, status: null, seqNo: row.SeqNo == null ? null : String(row.SeqNo), name: String(row.Name ?? ''), removed };
  });
  await deleteStoredBytes(files, dropped);
  return result;
}

/** Copy: a new Draft with the source's values and rows, and its own copies of the source's files. */
async function copyRecord(ctx: NodeContext, files: RecordFilesDeps, form: RuntimeForm, objectId: string) {
  const edb = engineOf(ctx);
  const row = await findRecord(edb, form, objectId);
  if (!row || !(await canReadRecord(edb, form, row, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId } });
  assertCan(form.rights, 'create');
  const children = await childrenOf(edb, form, objectId);
  for (const rows of Object.values(children)) for (const r of rows) delete r.ObjectId;
  const copy = await copyRecordFiles(edb, files, form, objectId, ctx, presentValues(form.fields, row), children);
  try {
    const result = await saveRecord(ctx, files, form, { submit: false, values: withoutPresentedValues(form, copy.values), children: copy.children });
    return { ...result, copiedFrom: objectId };
  } catch (error) {
    await deleteStoredBytes(files, await deleteFiles(edb, copy.copies));
    throw error;
  }
}

const withData = <T extends object>(result: T, data: unknown): T & { data?: unknown } => (data === undefined ? result : { ...result, data });

interface SaveInput {
  objectId?: string;
  submit: boolean;
  values: Record<string, unknown>;
  children?: Children;
}

/** A save from the form; `actionName` (Save or Submit) runs the form's `onSubmit` script first, in the same transaction. */
async function saveRecord(ctx: NodeContext, files: RecordFilesDeps, form: RuntimeForm, input: SaveInput, actionName?: string) {
  let dropped: string[] = [];
  const result = await inTransaction(ctx, async (edb) => {
    const script = actionName ? await submitWithScript(edb, ctx, form, { actionName, objectId: input.objectId, values: input.values, children: input.children }) : undefined;
    const saved = await saveRecordIn(edb, ctx, form, script ? { ...input, values: script.values, children: script.children } : input);
    dropped = saved.dropped;
    return withData(saved.result, script?.outcome?.responded);
  });
  await deleteStoredBytes(files, dropped);
  return result;
}

/**
 * How a save inside another action (a workflow's) differs from a plain one: the status it leaves, and for a work item
 * the fields its node lets the handler change (others keep their stored values) and must be filled.
 */
export interface SaveOptions {
  status?: (current: number | null) => number;
  /**
   * Why the caller may change this record without being its creator, owner or app administrator: as the handler of
   * an open work item of its flow, or through a business rule of a record they made effective.
   */
  editRight?: 'workItem' | 'businessRule';
  editable?: (code: string) => boolean;
  required?: readonly string[];
  /** Users and departments a batch already knows to exist (one lookup for the batch, docs/decisions/0029). */
  knownReferences?: KnownReferences;
  /** The record as the caller read it FOR UPDATE in this transaction (a rule's match): not read and locked again. */
  locked?: RecordRow;
}

export interface SavedRecord {
  result: { objectId: string; status: number; seqNo: string | null; name: string };
  /** Stored files the save no longer references: delete their bytes after the transaction commits. */
  dropped: string[];
}

const isBlank = (value: unknown) => value == null || value === '' || (Array.isArray(value) && value.length === 0);

/** One save in the caller's transaction: checks, formulas, files, sequence number, columns, rows and the data log. */
export async function saveRecordIn(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, given: SaveInput, options: SaveOptions = {}): Promise<SavedRecord> {
  let dropped: string[] = [];
  const input = options.editable ? onlyEditable(form, given, options.editable) : given;
  {
    const now = new Date();
    // NoRepeat checks and the singleton's one record must see concurrent saves of the same form: one lock per form.
    const noRepeat = form.fields.filter((f) => f.options.noRepeat === true);
    if (noRepeat.length || form.isSingleton) await lockFormData(edb, ctx.engineCode, form.node.code);
    const old = !input.objectId ? undefined : options.locked && String(options.locked.ObjectId) === input.objectId ? options.locked : await findRecord(edb, form, input.objectId, { forUpdate: true });
    if (input.objectId && !old) throw new AppError('BizObjectNotFound', { detail: { objectId: input.objectId } });
    if (!options.editRight) {
      // The caller's own rights (a work item's or a business rule's write has its own, docs/decisions/0037).
      if (old && !(await canReadRecord(edb, form, old, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId: input.objectId } });
      if (old) await assertMayChange(edb, form, old, ctx.userId, 'edit');
      else assertCan(form.rights, 'create');
    }
    const status = options.status ? options.status(old ? Number(old.Status) : null) : nextStatus(old ? Number(old.Status) : null, input.submit);
    if (!old && form.isSingleton && (await countRecords(edb, form)) > 0) throw new AppError('SingletonRecordExists', { detail: { schemaCode: form.node.code } });
    const deptId = old ? ((old.OwnerDeptId as string | null) ?? null) : await mainDepartmentOf(edb, ctx.userId, ctx.context);
    const oldValues = old ? presentValues(form.fields, old) : undefined;
    const oldChildren = old ? await childrenOf(edb, form, String(old.ObjectId)) : {};
    if (!options.editRight && form.rights.fields.size) assertWritable(form, input, { values: oldValues, children: oldChildren, who: { userId: ctx.userId, deptId }, now });
    const checked = checkInput(form, input, {
      isNew: !old,
      current: oldValues,
      currentChildCounts: new Map(Object.entries(oldChildren).map(([k, v]) => [k, v.length])),
      who: { userId: ctx.userId, deptId },
      now,
    });
    const objectId = old ? String(old.ObjectId) : newId();
    // Values set only by a step taken before the save (a passing face check) are presented by that step's id.
    await resolvePresentedValues(edb, ctx, form, checked, oldValues, objectId);
    // Items, users and departments the values name must exist; unchanged values pass (docs/decisions/0029).
    await checkFieldValues(edb, form, checked, { values: oldValues, children: oldChildren }, options.knownReferences);
    // Files: claimed to the record as the saver, values replaced by the server's refs (docs/decisions/0008).
    if (hasFileFields(form)) await claimRecordFiles(edb, form, objectId, ctx.userId, checked);
    // Association fills, data links, formulas and submit rules (docs/decisions/0012, 0016).
    await deriveOnSave(edb, ctx, form, checked, { values: oldValues, children: oldChildren }, { now, submit: false });
    // Rollups, then the formulas over them (docs/decisions/0015).
    await applyRollups(edb, form, checked, { values: oldValues, children: oldChildren }, objectId, now);
    // Submit rules see the record as it will be stored, rollups included.
    if (input.submit) await checkSubmitOnSave(edb, ctx, form, checked, { values: oldValues, children: oldChildren }, now);
    const merged = { ...oldValues, ...checked.values };
    // Tree forms: the record limit, no cycle, at most 10 levels (docs/decisions/0023).
    await checkTreeSave(edb, ctx.engineCode, form, { objectId, isNew: !old, before: oldValues, after: merged });
    for (const field of noRepeat) {
      const value = merged[field.code];
      if (value == null || value === '') continue;
      if (await duplicateExists(edb, form, field.code, value, objectId)) throw duplicateError(field);
    }
    const systemOf = (seq: string | null) => (old ? { ...old, Status: status } : { ObjectId: objectId, SeqNo: seq, Status: status, CreatedBy: ctx.userId, OwnerId: ctx.userId, OwnerDeptId: deptId, CreatedTime: now });
    // A new record's number is formed by its insert when its Name does not hold it (one round trip fewer, 0095).
    const numbered = old ? undefined : await numberNewRecords(edb, ctx.engineCode, form, [{ values: merged, system: systemOf }], now);
    const numbering = numbered?.numbering;
    let seqNo = old ? ((old.SeqNo as string | null) ?? null) : numbered!.seqNos[0]!;
    const name = old ? recordName(form, merged, systemOf(seqNo)) : numbered!.names[0]!;
    if (old) {
      await updateRecord(edb, form, objectId, recordColumns(form, checked, name, status, ctx.userId, now));
      for (const grid of form.grids) {
        const rows = checked.children.get(grid.code);
        if (!rows) continue;
        const keep = new Set((oldChildren[grid.code] ?? []).map((r) => String(r.ObjectId)));
        await replaceChildRows(edb, grid, objectId, childRowsFor(grid, objectId, rows, keep));
      }
    } else {
      // A new record, its sub-table rows and its data-log row (and its number's counter): one statement (0095).
      const row = { ...recordColumns(form, checked, name, status, ctx.userId, now, asJsonValue), ObjectId: objectId, SeqNo: seqNo, CreatedBy: ctx.userId, OwnerId: ctx.userId, OwnerDeptId: deptId, CreatedTime: now };
      const log = newRecordLog(form, objectId, ctx.userId, checked);
      const last = await insertJsonTables(edb, ctx.engineCode, [
        { table: form.mainTable, rows: [row] },
        ...form.grids.map((grid) => ({ table: grid.table, rows: childRowsFor(grid, objectId, checked.children.get(grid.code) ?? [], undefined, asJsonValue) })),
        { table: 'form_data_logs', rows: log ? [log] : [] },
      ], numbering);
      if (numbering) seqNo = numberedSeqNo(numbering, last!);
    }
    if (old && hasFileFields(form)) {
      const finalChildren = Object.fromEntries(form.grids.map((g) => [g.code, checked.children.get(g.code)?.map((r) => r.values) ?? oldChildren[g.code] ?? []]));
      dropped = await dropUnreferencedFiles(edb, form, objectId, merged, finalChildren);
    }
    if (old && form.definition.attributes.enableDataLog) {
      const changes = changesOf(form, oldValues, checked, oldChildren);
      if (changes.length) await writeDataLog(edb, form, objectId, ctx.userId, changes);
    }
    if (options.required?.length) requireFilled(form, options.required, merged, checked.children, oldChildren);
    // Business rules when it became effective; rollups of other forms that read it (docs/decisions/0015).
    dropped.push(...(await afterRecordSaved(edb, ctx, form, { objectId, before: old, status, values: merged })));
    return { result: { objectId, status, seqNo, name }, dropped };
  }
}

/** A work item's save: only the node's editable fields and sub-tables come from the handler. */
function onlyEditable(form: RuntimeForm, input: SaveInput, editable: (code: string) => boolean): SaveInput {
  const values = Object.fromEntries(Object.entries(input.values).filter(([code]) => editable(code)));
  const children = input.children ? Object.fromEntries(Object.entries(input.children).filter(([code]) => editable(code))) : undefined;
  return { ...input, values, children };
}

/** Fields a workflow node requires must hold a value once the handler's changes are applied (777 by field). */
function requireFilled(form: RuntimeForm, required: readonly string[], merged: Record<string, unknown>, children: Map<string, CheckedChildRow[]>, oldChildren: Children): void {
  const issues: { path: string; message: string }[] = [];
  for (const code of required) {
    const field = form.fields.find((f) => f.code === code);
    if (field && isBlank(merged[code])) issues.push({ path: `values.${code}`, message: `${String(field.options.displayName ?? code)}不能为空` });
    const grid = form.grids.find((g) => g.code === code);
    if (grid && (children.get(code) ?? oldChildren[code] ?? []).length === 0) issues.push({ path: `values.${code}`, message: `${String(grid.options.displayName ?? code)}至少需要一行` });
  }
  if (issues.length) throw parameterError(issues);
}

export type { RecordRow };
