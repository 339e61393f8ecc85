import type { Transaction } from 'kysely';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { AUTH_TYPE_ADMINISTRATOR } from '../../plugins/auth.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { insertRecordsIn, insertsSetWise } from '../business-data/record-batch.ts';
import { findRecord, updateRecord } from '../business-data/records.repo.ts';
import { deleteStoredBytes } from '../business-data/record-files.ts';
import { startFromForm, startParked } from '../workflow/workflow.service.ts';
import { bizObjectIn, type Issue } from './open-api-values.ts';
import { OPEN_API_MAX_ROWS, type InvokeDeps, badRequest, flag, object, objectId, recordPath, renamingIssues, text, type Body } from './open-api-params.ts';
import { joinedDb } from '../../db/joined-transaction.ts';
import { existingReferences, inputReferenceIds, type KnownReferences } from '../business-data/value-references.ts';

// CreateBizObject(s) and UpdateBizObject (h3yun-facts §1.4; docs/decisions/0021, 0030): the payload's OwnerId names
// the record's owner, IsSubmit on a workflow form starts its flow — parked on the start node (false) or submitted to
// the next node by the owner (true) — and CreateBizObjects on a workflow form writes one transaction per record.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who a record belongs to: a user of the engine and their main department. */
export interface Owner {
  userId: string;
  deptId: string | null;
}

const ownerIdIn = (bizObject: Record<string, unknown>): string | null => {
  const value = bizObject.OwnerId;
  if (value === undefined || value === null || value === '') return null;
  return typeof value === 'string' ? value.trim() : '';
};

/** The active users among the OwnerIds of a batch of BizObjects, with their main departments: one query. */
async function activeOwners(edb: EngineExecutor, bizObjects: Record<string, unknown>[]): Promise<Map<string, string | null>> {
  const ids = [...new Set(bizObjects.map(ownerIdIn).filter((id): id is string => !!id && UUID.test(id)))];
  if (!ids.length) return new Map();
  const users = await edb.selectFrom('org_users').select(['id', 'main_department_id']).where('id', 'in', ids).where('state', '=', 'active').execute();
  return new Map(users.map((u) => [u.id, u.main_department_id]));
}

/**
 * The owner a BizObject names in OwnerId: an active user of the engine (320100 otherwise, naming the place); absent
 * or empty = none named (the secret's Administrator owns the record, as before). `owners`: activeOwners of the batch.
 */
function ownerIn(owners: Map<string, string | null>, bizObject: Record<string, unknown>, path: string): Owner | null {
  const id = ownerIdIn(bizObject);
  if (id === null) return null;
  if (!owners.has(id)) {
    const value = bizObject.OwnerId;
    throw new AppError('OpenApiOwnerInvalid', { detail: { issues: [{ path: `${path}.OwnerId`, message: `须为本组织在职用户的 id，收到 ${typeof value === 'string' ? value.slice(0, 64) : typeof value}` }] } });
  }
  return { userId: id, deptId: owners.get(id) ?? null };
}

/** A BizObject's values, converted from the product's formats; conversion problems are a 320003. */
function recordInput(form: RuntimeForm, bizObject: Record<string, unknown>, path: string) {
  const issues: Issue[] = [];
  const input = bizObjectIn(form, bizObject, path, issues);
  if (issues.length) throw badRequest(issues);
  return input;
}

interface Prepared {
  input: ReturnType<typeof recordInput>;
  owner: Owner | null;
  path: string;
}

/** Each BizObject converted and its owner checked, in order (a problem names its index); the owners in one query. */
async function prepare(ctx: NodeContext, form: RuntimeForm, values: unknown[], path: (i: number) => string): Promise<Prepared[]> {
  // A BizObject that is not an object is refused in its turn, after the problems of the items before it.
  const read = values.map((value, i) => {
    try {
      return object(value, path(i));
    } catch (error) {
      return error as AppError;
    }
  });
  const owners = await activeOwners(engineOf(ctx), read.filter((b): b is Record<string, unknown> => !(b instanceof AppError)));
  return read.map((bizObject, i) => {
    if (bizObject instanceof AppError) throw bizObject;
    return { input: recordInput(form, bizObject, path(i)), owner: ownerIn(owners, bizObject, path(i)), path: path(i) };
  });
}

const setOwner = (edb: EngineExecutor, form: RuntimeForm, id: string, owner: Owner) => updateRecord(edb, form, id, { OwnerId: owner.userId, OwnerDeptId: owner.deptId });

/**
 * One new record in the caller's transaction `trx`. A data form: Draft or Effective. A workflow form: saved as a
 * Draft, its owner set, then its flow started through the workflow module in the same transaction — by the owner
 * (on the secret's authority: the API acts as an Administrator), submitted when `submit`, else running and parked on
 * the start node (Status Running, the start item waiting for the owner).
 */
async function createIn(trx: Transaction<PlatformDb>, ctx: NodeContext, form: RuntimeForm, item: Prepared, submit: boolean, dropped: string[], knownReferences?: KnownReferences) {
  const edb = engineDb(trx as unknown as Db, ctx.engineCode);
  const saved = await renamingIssues(
    // A workflow record's Submit checks what a submit checks (required fields, submit rules) but stays a Draft until
    // its flow starts, as the form's own Submit does (record.service execute).
    () => saveRecordIn(edb, ctx, form, { submit, ...item.input }, { knownReferences, ...(form.isWorkflow ? { status: () => BizObjectStatus.Draft } : {}) }),
    recordPath(item.path),
  );
  dropped.push(...saved.dropped);
  const id = saved.result.objectId;
  if (item.owner) await setOwner(edb, form, id, item.owner);
  if (!form.isWorkflow) return { objectId: id, instanceId: '' };
  const starter: NodeContext = { db: joinedDb(trx), engineCode: ctx.engineCode, userId: item.owner?.userId ?? ctx.userId, authType: AUTH_TYPE_ADMINISTRATOR };
  if (submit) await startFromForm(edb, starter, form, id);
  else await startParked(edb, starter, form, id);
  const row = await findRecord(edb, form, id);
  return { objectId: id, instanceId: String(row?.WorkflowInstanceId ?? '') };
}

export async function createBizObject(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const submit = flag(body.IsSubmit, 'IsSubmit', false);
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const [item] = await prepare(ctx, form, [body.BizObject], () => 'BizObject');
  const dropped: string[] = [];
  const created = await ctx.db.transaction().execute((trx) => createIn(trx, ctx, form, item, submit, dropped));
  await deleteStoredBytes(deps.files, dropped);
  return { BizObjectId: created.objectId, WorkflowInstanceId: created.instanceId };
}

/**
 * Every item is converted and its owner checked before anything is written (a problem names its index). A data form:
 * all or nothing, one transaction, written set-wise (docs/decisions/0033) unless it is a singleton or a tree. A workflow form: one transaction per record, in order (each starts a flow); a
 * record refused there stops the call, and the error answers the ids already created in ReturnData.
 */
export async function createBizObjects(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const array = body.BizObjectArray;
  if (!Array.isArray(array) || array.length === 0) throw badRequest([{ path: 'BizObjectArray', message: '须为非空数组' }]);
  if (array.length > OPEN_API_MAX_ROWS) throw new AppError('OpenApiTooManyRows', { detail: { max: OPEN_API_MAX_ROWS, asked: array.length } });
  const submit = flag(body.IsSubmit, 'IsSubmit', false);
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const items = await prepare(ctx, form, array, (i) => `BizObjectArray.${i}`);
  const dropped: string[] = [];
  const ids: string[] = [];
  // The users and departments of the whole batch in one lookup (docs/decisions/0029).
  const known = await existingReferences(engineDb(ctx.db, ctx.engineCode), inputReferenceIds(form, items.map((item) => item.input)));
  try {
    if (insertsSetWise(form)) {
      // Set-wise (docs/decisions/0033): every record checked, then the batch written in a handful of statements.
      const inputs = items.map((item) => ({ ...item.input, owner: item.owner }));
      const checking = <T>(i: number, work: () => Promise<T>) => renamingIssues(work, recordPath(items[i]!.path));
      const saved = await ctx.db.transaction().execute((trx) => insertRecordsIn(engineDb(trx as unknown as Db, ctx.engineCode), ctx, form, inputs, submit, { knownReferences: known, checking }));
      dropped.push(...saved.dropped);
      ids.push(...saved.objectIds);
    } else if (!form.isWorkflow) {
      await ctx.db.transaction().execute(async (trx) => {
        for (const item of items) ids.push((await createIn(trx, ctx, form, item, submit, dropped, known)).objectId);
      });
    } else {
      for (const [i, item] of items.entries()) {
        try {
          ids.push((await ctx.db.transaction().execute((trx) => createIn(trx, ctx, form, item, submit, dropped, known))).objectId);
        } catch (error) {
          if (!(error instanceof AppError) || !ids.length) throw error;
          // The records before this one are committed (their flows started): say so, and answer their ids.
          const detail = (error.detail ?? {}) as Record<string, unknown>;
          throw new AppError(error.errorName, {
            message: `BizObjectArray.${i}：${error.message}（此前的 ${ids.length} 条已创建）`,
            status: error.status,
            detail: { ...detail, returnData: { BizObjectIdArray: [...ids] } },
          });
        }
      }
    }
  } finally {
    await deleteStoredBytes(deps.files, dropped);
  }
  // The Python client's helper counts what was made from ReturnData.Successful and ReturnData.Count.
  return { BizObjectIdArray: ids, Successful: true, Count: ids.length };
}

/** A Save of the codes sent (sub-tables sent replace their rows); the status stays; an OwnerId given moves the owner. */
export async function updateBizObject(ctx: NodeContext, body: Body, deps: InvokeDeps): Promise<Record<string, unknown>> {
  const schemaCode = text(body, 'SchemaCode');
  const id = objectId(body);
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const [item] = await prepare(ctx, form, [body.BizObject], () => 'BizObject');
  const dropped: string[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    const saved = await renamingIssues(() => saveRecordIn(edb, ctx, form, { objectId: id, submit: false, ...item.input }), recordPath('BizObject'));
    dropped.push(...saved.dropped);
    if (item.owner) await setOwner(edb, form, id, item.owner);
  });
  await deleteStoredBytes(deps.files, dropped);
  return {};
}
