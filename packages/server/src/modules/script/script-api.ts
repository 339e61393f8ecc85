import { sql } from 'kysely';
import { z } from 'zod';
import { UserAuthType } from '@tritium/shared/constants/org';
import { MAX_MESSAGE_RECIPIENTS } from '@tritium/shared/constants/limits';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { notify } from '../notification/notify.ts';
import { checked, countRecords, createRecord, getRecord, queryRecords, removeRecord, updateRecord, type RecordsActor } from './script-records.ts';
import { ScriptCallError } from './sandbox-errors.ts';
import { callConnectorForScript } from '../connectors/script-connectors.ts';

// The host side of the server script API (docs/decisions/0118): every call the prelude makes through `__host` lands
// here, bound to the caller's transaction and engine schema. A mistake of the script (an unknown form, an id that
// names nothing, a wrong type) rejects the script's promise with a Chinese message and leaves the transaction usable:
// each call runs inside a savepoint, so a write refused half-way leaves nothing behind even if the script catches it.

export interface ScriptApiSession {
  /** The caller's transaction, in the engine's schema. */
  edb: EngineExecutor;
  /** The caller, `db` being the same transaction. */
  ctx: NodeContext;
  /** A dry run sends no notification. */
  dryRun: boolean;
  /** Stored files the script's writes dropped (delete their bytes after the commit). */
  dropped: string[];
}

type Call = (session: ScriptApiSession, args: unknown) => Promise<unknown>;

const USERS_MAX = 1000;
const Id = z.string({ error: 'ID 须为文本' }).min(1).max(64);

/** The caller's standing, or the system's: an administrator's (every form with full rights). */
function actorOf(session: ScriptApiSession, system: boolean): RecordsActor {
  const ctx: NodeContext = system ? { db: session.ctx.db, engineCode: session.ctx.engineCode, userId: session.ctx.userId, authType: UserAuthType.Administrator } : session.ctx;
  return { edb: session.edb, ctx, system, dropped: session.dropped };
}

const records = (system: boolean): Record<string, Call> => {
  const prefix = system ? 'system.' : '';
  const on = (work: (actor: RecordsActor, args: unknown) => Promise<unknown>): Call => (session, args) => work(actorOf(session, system), args);
  return {
    [`${prefix}records.get`]: on(getRecord),
    [`${prefix}records.query`]: on(queryRecords),
    [`${prefix}records.count`]: on(countRecords),
    [`${prefix}records.create`]: on(createRecord),
    [`${prefix}records.update`]: on(updateRecord),
    [`${prefix}records.remove`]: on(removeRecord),
  };
};

const userColumns = ['u.id', 'u.name', 'u.main_department_id as departmentId', 'u.state'] as const;

const org: Record<string, Call> = {
  'org.user': async ({ edb }, args) => {
    const { id } = checked(z.object({ id: Id }), args);
    return (await edb.selectFrom('org_users as u').select(userColumns).where('u.id', '=', id).executeTakeFirst()) ?? null;
  },
  'org.department': async ({ edb }, args) => {
    const { id } = checked(z.object({ id: Id }), args);
    return (await departments(edb).where('u.id', '=', id).executeTakeFirst()) ?? null;
  },
  'org.departments': async ({ edb }, args) => {
    const { parentId } = checked(z.object({ parentId: Id.nullable() }), args);
    const q = departments(edb).orderBy('u.sort_key').orderBy('u.id').limit(USERS_MAX);
    return parentId ? q.where('u.parent_id', '=', parentId).execute() : q.where('u.unit_type', '=', 'Company').execute();
  },
  'org.usersOf': async ({ edb }, args) => {
    const { departmentId } = checked(z.object({ departmentId: Id }), args);
    return edb.selectFrom('org_users as u').innerJoin('org_user_departments as ud', 'ud.user_id', 'u.id').select(userColumns)
      .where('ud.department_id', '=', departmentId).where('u.state', '=', 'active').orderBy('u.name_pinyin').orderBy('u.id').limit(USERS_MAX).execute();
  },
  'org.roles': async ({ edb }) =>
    edb.selectFrom('org_units as u').leftJoin('org_units as g', 'g.id', 'u.parent_id').select(['u.id', 'u.name', 'g.name as groupName'])
      .where('u.unit_type', '=', 'Role').orderBy('g.sort_key').orderBy('u.sort_key').orderBy('u.id').execute(),
  'org.usersInRole': async ({ edb }, args) => {
    // A role is named by its id or, as authors usually know it, by its name.
    const { role } = checked(z.object({ role: Id }), args);
    return edb.selectFrom('org_users as u').innerJoin('org_role_members as rm', 'rm.user_id', 'u.id').innerJoin('org_units as r', 'r.id', 'rm.role_id').select(userColumns)
      .where('r.unit_type', '=', 'Role').where((eb) => eb.or([eb('r.id', '=', role), eb('r.name', '=', role)])).where('u.state', '=', 'active')
      .orderBy('u.name_pinyin').orderBy('u.id').limit(USERS_MAX).execute();
  },
};

function departments(edb: EngineExecutor) {
  return edb.selectFrom('org_units as u').select(['u.id', 'u.name', 'u.parent_id as parentId', 'u.manager_id as managerId']).where('u.unit_type', 'in', ['Company', 'OrganizationUnit']);
}

const Message = z.strictObject({
  title: z.string({ error: '通知须有标题' }).trim().min(1, '通知须有标题').max(200, '标题最多 200 个字'),
  content: z.string().max(2000, '内容最多 2000 个字').optional(),
  schemaCode: z.string().max(128).optional(),
  objectId: z.string().max(64).optional(),
});

const others: Record<string, Call> = {
  notify: async ({ edb, ctx, dryRun }, args) => {
    const a = checked(z.object({ userIds: z.array(Id).min(1, '至少一位接收人').max(MAX_MESSAGE_RECIPIENTS, `接收人最多 ${MAX_MESSAGE_RECIPIENTS} 位`), message: Message }), args);
    // Only active users of this engine receive it; other ids are left out.
    const receivers = (await edb.selectFrom('org_users').select('id').where('id', 'in', [...new Set(a.userIds)]).where('state', '=', 'active').execute()).map((u) => u.id);
    const link = a.message.schemaCode && a.message.objectId ? { schemaCode: a.message.schemaCode, objectId: a.message.objectId } : undefined;
    if (!dryRun && receivers.length) await notify(edb, ctx.engineCode, receivers, { category: 'system', title: a.message.title, content: a.message.content, sender: ctx.userId, link });
    return { receivers, sent: !dryRun && receivers.length > 0 };
  },
  // Connectors (issue 44, docs/decisions/0120): run by the connectors module's one client.
  'connectors.call': ({ edb, ctx }, args) => callConnectorForScript(edb, ctx.engineCode, args),
};

const CALLS: ReadonlyMap<string, Call> = new Map(Object.entries({ ...records(false), ...records(true), ...org, ...others }));

let savepoints = 0;

/**
 * Runs one call of the script. AppErrors (the platform refusing: not found, no right, bad values) and argument
 * mistakes answer the script as ScriptCallError; anything else is the host's failure and ends the run.
 */
export async function callScriptApi(session: ScriptApiSession, name: string, args: unknown): Promise<unknown> {
  const call = CALLS.get(name);
  if (!call) throw new ScriptCallError(`没有这个接口：${name}`);
  if (!session.edb.isTransaction) return answered(() => call(session, args));
  const savepoint = sql.id(`script_call_${++savepoints}`);
  await sql`savepoint ${savepoint}`.execute(session.edb);
  try {
    const result = await answered(() => call(session, args));
    await sql`release savepoint ${savepoint}`.execute(session.edb);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${savepoint}`.execute(session.edb);
    throw error;
  }
}

async function answered<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new ScriptCallError(messageOf(error));
  }
}

function messageOf(error: AppError): string {
  const issues = (error.detail as { issues?: { path: string; message: string }[] } | undefined)?.issues;
  if (error.errorName === 'ParameterVerificationFailed' && issues?.length) return `${error.message}：${issues.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join('；')}`;
  return error.message;
}
