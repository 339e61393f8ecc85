import { sql } from 'kysely';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { newId } from '../../lib/ids.ts';
import { AppError } from '../../lib/app-error.ts';
import { changesOf } from '../business-data/data-log.ts';
import { deriveOnSave } from '../business-data/data-link-save.ts';
import { checkInput } from '../business-data/record-input.ts';
import { numberNewRecords, type RecordToNumber } from '../business-data/record-numbers.ts';
import { nextStatus } from '../business-data/record-policy.ts';
import { applyRollups } from '../business-data/record-rollups.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { checkFieldValues, type KnownReferences } from '../business-data/value-references.ts';
import { duplicateExists, type RecordRow } from '../business-data/records.repo.ts';
import { anyDb, type DataField, type RuntimeForm } from '../business-data/runtime-form.ts';
import { publishedRulesOf } from '../business-rules/business-rules.repo.ts';
import { finishedInstanceTemplate, writeFinishedInstances, type FinishedInstanceTemplate } from '../workflow/imported-instance.ts';
import { setRecordStatus } from '../workflow/record-status.ts';
import { startFromForm } from '../workflow/workflow.service.ts';
import type { ImportDataState } from './task-repo.ts';
import type { PreparedRecord } from './import-record.ts';
import { insertJsonTables } from '../business-data/json-rows.ts';
import { ChosenAhead } from '../business-data/association-batch.ts';
import type { WithChosenAhead } from '../business-data/association.service.ts';
import type { Db } from '../../db/types.ts';

// Writing imported records inside their batch's transaction (docs/decisions/0007, 0020).
//
// Every record that is more than a plain insert goes through the form save itself (record.service.ts saveRecordIn)
// inside a savepoint: updates, Processing (saved as a Draft, then its flow starts as with Submit: workflow.service
// startFromForm), and any record of a form whose saves run business rules or refresh rollups of other forms. A
// refused record rolls back to its savepoint and leaves nothing.
//
// Plain inserts (Draft or Effective, no rules, no dependants) take the fast path: the save's own steps (checkInput,
// deriveOnSave — association fills, data links, formulas, submit rules —, applyRollups, NoRepeat, recordName,
// changesOf) with the rows collected into one statement per flush, numbered as every save numbers its records
// (record-numbers.ts numberNewRecords: by the insert itself, or by one counter statement for the rows flushed).
// Effective records of a workflow form get a finished instance each (workflow/imported-instance.ts).

export type Owner = NodeContext & WithChosenAhead & { deptId: string | null };

/** What the batch's writes share: decided once per task run. */
export interface ImportPlan {
  dataState: ImportDataState;
  /** Effective records of a workflow form: the template their finished instances name. */
  instances: FinishedInstanceTemplate | undefined;
  /** Saves of this form run business rules or refresh other forms' rollups: every record goes through the save. */
  hooks: boolean;
}

export async function importPlan(edb: EngineExecutor, form: RuntimeForm, dataState: ImportDataState): Promise<ImportPlan> {
  let instances: FinishedInstanceTemplate | undefined;
  if (form.isWorkflow && dataState !== 'Draft') {
    instances = await finishedInstanceTemplate(edb, form.node.code);
    if (!instances) throw new AppError('WorkflowTemplateNotPublished', { detail: { schemaCode: form.node.code } });
  }
  const rules = await publishedRulesOf(edb, form.node.code);
  const dependants = await edb.selectFrom('form_dependencies').select('schema_code').where('depends_on', '=', form.node.code).where('kind', '=', 'rollup').limit(1).execute();
  return { dataState, instances: dataState === 'Effective' ? instances : undefined, hooks: (dataState !== 'Draft' && rules.length > 0) || dependants.length > 0 };
}

/**
 * The data state an import asked for, or its default: Effective, as a form's Submit makes its records (the records
 * count at once in reports; a workflow form's get finished instances). A workflow form without a published flow
 * cannot take Effective records: its default is Draft.
 */
export async function importDataState(edb: EngineExecutor, form: RuntimeForm, asked: ImportDataState | undefined): Promise<ImportDataState> {
  if (asked) return asked;
  if (!form.isWorkflow) return 'Effective';
  return (await finishedInstanceTemplate(edb, form.node.code)) ? 'Effective' : 'Draft';
}

/** Checks a workflow form's import before it is queued: Processing only into workflow forms, a published flow. */
export async function assertImportable(edb: EngineExecutor, form: RuntimeForm, dataState: ImportDataState): Promise<void> {
  if (dataState === 'Processing' && !form.isWorkflow) throw new AppError('DataPortDataStateUnsupported', { detail: { schemaCode: form.node.code } });
  await importPlan(edb, form, dataState);
}

/**
 * New records, their sub-table rows, data-log rows and finished instances of one batch, written in one statement
 * (each table's rows as one JSON text, json-rows.ts) and numbered when written: the counter moves by the rows
 * flushed, so a refused record takes no number. The batch flushes it before every read that must see them (key
 * lookups, NoRepeat checks, a save) and before it commits.
 */
export class InsertBuffer {
  private main: Record<string, unknown>[] = [];
  private toNumber: RecordToNumber[] = [];
  private children = new Map<string, Record<string, unknown>[]>();
  private logs: { id: string; object_id: string; changes: unknown[] }[] = [];
  /** The data log's columns every row of the batch holds alike (its form, its saver): sent once (json-rows.ts). */
  private readonly logShared: Record<string, unknown>;
  constructor(
    private readonly form: RuntimeForm,
    private readonly engineCode: string,
    private readonly now: Date,
    private readonly instances?: { template: FinishedInstanceTemplate; originator: string },
    /** Where the numbers are taken when not in this batch's transaction (docs/decisions/0099). */
    private readonly counter?: NumberTurns,
    /**
     * The main-table columns every new record of the batch holds alike (status, saver, owner, times): sent once beside
     * the rows, not once a row (issue 50: the bench's rows' JSON about halved, and as much less for the database to parse).
     */
    private readonly mainShared?: Record<string, unknown>,
    userId = '',
  ) {
    this.logShared = { schema_code: form.node.code, user_id: userId };
  }

  get size(): number {
    return this.main.length + this.logs.length;
  }

  async flush(edb: EngineExecutor): Promise<void> {
    const { form, now } = this;
    let numbers;
    if (this.counter && this.main.length) {
      await this.counter.ready;
      numbers = await numberNewRecords(edb, this.engineCode, form, this.toNumber, now, { counterDb: this.counter.db });
      this.counter.taken();
    } else numbers = await numberNewRecords(edb, this.engineCode, form, this.toNumber, now);
    for (const [i, row] of this.main.entries()) {
      row.SeqNo = numbers.seqNos[i];
      row.Name = numbers.names[i];
    }
    if (this.instances && this.main.length) {
      const { template, originator } = this.instances;
      const ids = await writeFinishedInstances(edb, form.node.code, template, this.main.map((r) => ({ objectId: String(r.ObjectId), name: String(r.Name ?? '') })), originator, now);
      for (const row of this.main) row.WorkflowInstanceId = ids.get(String(row.ObjectId)) ?? null;
    }
    // One statement for every table whatever the batch's size (json-rows.ts, docs/decisions/0095).
    await insertJsonTables(edb, this.engineCode, [
      { table: form.mainTable, rows: this.main, ...(this.mainShared ? { shared: this.mainShared } : {}) },
      ...form.grids.map((grid) => ({ table: grid.table, rows: this.children.get(grid.code) ?? [] })),
      { table: 'form_data_logs', rows: this.logs, shared: this.logShared },
    ], numbers.numbering);
    this.main = [];
    this.toNumber = [];
    this.children.clear();
    this.logs = [];
  }

  /** A new record's main row (its SeqNo and Name are set when it is numbered) and what numbering it reads. */
  addMain(row: Record<string, unknown>, toNumber: RecordToNumber) {
    this.main.push(row);
    this.toNumber.push(toNumber);
  }

  addChildren(grid: string, rows: Record<string, unknown>[]) {
    const list = this.children.get(grid);
    if (list) list.push(...rows);
    else this.children.set(grid, [...rows]);
  }

  /** A data-log row of a new record (its saver is the batch's, `logShared`). */
  addLog(objectId: string, changes: unknown[]) {
    this.logs.push({ id: newId(), object_id: objectId, changes });
  }
}

/**
 * Numbers taken outside the batches' transactions, committed at once (docs/decisions/0099): two batches in flight
 * would otherwise queue on the counter's row lock until the earlier commits. Batches take their turn in file order
 * (`turn` is called as each batch starts), so numbers still follow the file.
 */
export interface NumberTurns {
  db: EngineExecutor;
  /** Settles when the earlier batches have taken their numbers. */
  ready: Promise<unknown>;
  /** Lets the next batch take its numbers: called once this one has (or when it ends without). */
  taken: () => void;
}

export class NumberQueue {
  private last: Promise<unknown> = Promise.resolve();
  constructor(private readonly db: EngineExecutor) {}

  /** The next batch's turn (called as batches start, in file order). */
  turn(): NumberTurns {
    let taken!: () => void;
    const mine = new Promise<void>((resolve) => (taken = resolve));
    const ready = this.last;
    this.last = mine;
    return { db: this.db, ready, taken };
  }
}

export interface BatchState {
  edb: EngineExecutor;
  form: RuntimeForm;
  owner: Owner;
  plan: ImportPlan;
  buffer: InsertBuffer;
  now: Date;
  /** `now` as ISO text, as rows going into JSON hold it. */
  nowText: string;
  /** Stored files saves dropped (their bytes go after the commit). */
  dropped: string[];
  /** Users and departments the task's lookups hold: not looked up again per record (docs/decisions/0029). */
  known?: KnownReferences;
}

export function batchState(edb: EngineExecutor, form: RuntimeForm, owner: Owner, plan: ImportPlan, now: Date, counter?: NumberTurns): BatchState {
  const instances = plan.instances ? { template: plan.instances, originator: owner.userId } : undefined;
  const nowText = now.toISOString();
  // What fastInsert gives every new record of the batch (the importer saves and owns them, at the batch's time).
  const shared = { Status: newStatusOf(plan), ModifiedBy: owner.userId, ModifiedTime: nowText, CreatedBy: owner.userId, OwnerId: owner.userId, OwnerDeptId: owner.deptId, CreatedTime: nowText };
  return { edb, form, owner, plan, buffer: new InsertBuffer(form, owner.engineCode, now, instances, counter, shared, owner.userId), now, nowText, dropped: [] };
}

/**
 * Reads the records the batch's associations choose, one query per association form and data range, before its
 * records are written (docs/decisions/0135): each record's save then checks its choices against that read instead
 * of a query of its own. Only where nothing the batch writes can change what was read: no save hooks (business rules,
 * other forms' rollups) and no flows started; an association of the form itself is read by each save as before.
 */
export async function readAssociationsAhead(b: BatchState, inputs: readonly PreparedRecord[]): Promise<void> {
  if (b.plan.hooks || b.plan.dataState === 'Processing' || !inputs.length) return;
  const { chosenAhead: _, ...owner } = b.owner;
  const ahead = await ChosenAhead.read({ ...owner, db: b.edb as unknown as Db }, b.form, inputs);
  b.owner = { ...owner, chosenAhead: ahead };
}

/** The status of a record the fast path inserts: Effective for an Effective import, else a Draft. */
function newStatusOf(plan: ImportPlan): number {
  return plan.dataState === 'Effective' ? BizObjectStatus.Effective : BizObjectStatus.Draft;
}

/** Writes what the batch still holds. */
export async function settle(b: BatchState): Promise<void> {
  await b.buffer.flush(b.edb);
}

/** Inserts (old undefined) or updates `old`. Throws AppError (777 with issues, or a business error) when refused. */
export async function writeImported(b: BatchState, input: PreparedRecord, old: RecordRow | undefined): Promise<string> {
  if (old || b.plan.dataState === 'Processing' || b.plan.hooks) return throughSave(b, input, old);
  return fastInsert(b, input);
}

/** The form save in a savepoint, then the workflow step the data state asks for. */
async function throughSave(b: BatchState, input: PreparedRecord, old: RecordRow | undefined): Promise<string> {
  const { edb, form, owner, plan } = b;
  await settle(b);
  await sql`savepoint import_record`.execute(edb);
  try {
    const hasFlow = !!old?.WorkflowInstanceId;
    const body = { objectId: old ? String(old.ObjectId) : undefined, submit: plan.dataState !== 'Draft', values: input.values, children: input.children };
    let status: ((current: number | null) => number) | undefined;
    // A workflow form's record leaves the Draft only through its flow (finished at once for Effective).
    // A record already in a flow keeps its status: an Effective one is updated, a running or cancelled one refused.
    if (form.isWorkflow) status = (current) => (hasFlow ? nextStatus(current, false) : plan.dataState === 'Effective' ? BizObjectStatus.Effective : draftOnly(current));
    const saved = await saveRecordIn(edb, owner, form, body, { ...(status ? { status } : {}), knownReferences: b.known });
    b.dropped.push(...saved.dropped);
    const objectId = saved.result.objectId;
    if (form.isWorkflow && !hasFlow && plan.dataState === 'Effective') {
      const ids = await writeFinishedInstances(edb, form.node.code, plan.instances!, [{ objectId, name: saved.result.name }], owner.userId, b.now);
      await setRecordStatus(edb, form.node.code, objectId, BizObjectStatus.Effective, { workflowInstanceId: ids.get(objectId)! });
    }
    if (plan.dataState === 'Processing') await startFromForm(edb, owner, form, objectId);
    await sql`release savepoint import_record`.execute(edb);
    return objectId;
  } catch (error) {
    await sql`rollback to savepoint import_record`.execute(edb);
    throw error;
  }
}

function draftOnly(current: number | null): number {
  if (current !== null && current !== BizObjectStatus.Draft) throw new AppError('BizObjectActionNotAllowed', { detail: { status: current } });
  return BizObjectStatus.Draft;
}

/** The form's NoRepeat fields, found once per list of fields. */
const noRepeatCache = new WeakMap<readonly DataField[], DataField[]>();
function noRepeatFieldsOf(form: RuntimeForm): DataField[] {
  let list = noRepeatCache.get(form.fields);
  if (!list) noRepeatCache.set(form.fields, (list = form.fields.filter((f) => f.options.noRepeat === true)));
  return list;
}

/** A new record through the save's own steps, its rows buffered (numbered when they are written). */
async function fastInsert(b: BatchState, input: PreparedRecord): Promise<string> {
  const { edb, form, owner, buffer, now } = b;
  const submit = b.plan.dataState === 'Effective';
  const status = newStatusOf(b.plan);
  const deptId = owner.deptId;
  const checked = checkInput(form, { values: input.values, children: input.children }, { isNew: true, currentChildCounts: new Map(), who: { userId: owner.userId, deptId }, now });
  await checkFieldValues(edb, form, checked, undefined, b.known);
  const objectId = newId();
  await deriveOnSave(edb, owner, form, checked, { children: {} }, { now, submit });
  await applyRollups(edb, form, checked, { children: {} }, objectId, now);
  const merged = { ...checked.values };
  const noRepeat = noRepeatFieldsOf(form);
  if (noRepeat.length && buffer.size) await buffer.flush(edb);
  for (const field of noRepeat) {
    const value = merged[field.code];
    if (value == null || value === '') continue;
    if (await duplicateExists(edb, form, field.code, value, objectId)) {
      const message = String(field.options.noRepeatTipMessage || '') || `${String(field.options.displayName ?? field.code)}的值已存在，不能重复`;
      throw new AppError('BizObjectDuplicate', { message, detail: { field: field.code, issues: [{ path: `values.${field.code}`, message }] } });
    }
  }
  const system = (seqNo: string | null) => ({ ObjectId: objectId, SeqNo: seqNo, Status: status, CreatedBy: owner.userId, OwnerId: owner.userId, OwnerDeptId: deptId, CreatedTime: now });
  // One object per row with what differs between the batch's records; the status, saver, owner and times every one
  // holds are the buffer's shared columns (batchState), sent once. WorkflowInstanceId is set when it is written.
  const row: Record<string, unknown> = { Name: null };
  for (const field of form.fields) if (field.code in checked.values) row[field.code] = checked.values[field.code] ?? null;
  row.ObjectId = objectId;
  row.SeqNo = null;
  buffer.addMain(row, { values: merged, system });
  for (const grid of form.grids) {
    const rows = checked.children.get(grid.code);
    if (!rows?.length) continue;
    buffer.addChildren(grid.code, rows.map((row, i) => ({
      ObjectId: newId(),
      ParentObjectId: objectId,
      SortKey: i,
      ...Object.fromEntries(grid.fields.map((f) => [f.code, row.values[f.code] ?? null])),
    })));
  }
  if (form.definition.attributes.enableDataLog) {
    const changes = changesOf(form, undefined, checked, {});
    if (changes.length) buffer.addLog(objectId, changes);
  }
  return objectId;
}
