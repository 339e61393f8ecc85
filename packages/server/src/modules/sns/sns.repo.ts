import { sql, type Selectable } from 'kysely';
import type { FormCommentTable, FormTaskTipTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// Kysely on form_comments and form_task_tips (docs/decisions/0009). Every function takes the executor (root or
// transaction) first; rows come with their people's names (org_users, left joined: a removed user shows '').

export type CommentRow = Selectable<FormCommentTable> & { author_name: string | null };
export type TaskTipRow = Selectable<FormTaskTipTable> & { creator_name: string | null };

function commentsWithNames(edb: EngineExecutor) {
  return edb
    .selectFrom('form_comments as c')
    .leftJoin('org_users as u', 'u.id', 'c.created_by')
    .selectAll('c')
    .select('u.name as author_name');
}

export async function findComment(edb: EngineExecutor, id: string, options: { forUpdate?: boolean } = {}): Promise<CommentRow | undefined> {
  let q = commentsWithNames(edb).where('c.id', '=', id);
  if (options.forUpdate) q = q.forUpdate('c');
  return q.executeTakeFirst();
}

/** A page of a record's top-level comments, newest first. */
export async function rootCommentsOf(edb: EngineExecutor, schemaCode: string, objectId: string, page: { offset: number; limit: number }): Promise<CommentRow[]> {
  return commentsWithNames(edb)
    .where('c.schema_code', '=', schemaCode)
    .where('c.object_id', '=', objectId)
    .where('c.root_id', 'is', null)
    .orderBy('c.created_time', 'desc')
    .orderBy('c.id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** Every reply under the given top-level comments, oldest first (conversation order). */
export async function repliesOf(edb: EngineExecutor, rootIds: string[]): Promise<CommentRow[]> {
  if (!rootIds.length) return [];
  return commentsWithNames(edb).where('c.root_id', 'in', rootIds).orderBy('c.created_time').orderBy('c.id').execute();
}

/** How many comments a record has: top-level ones and all (replies included). */
export async function countComments(edb: EngineExecutor, schemaCode: string, objectId: string): Promise<{ roots: number; all: number }> {
  const r = await edb
    .selectFrom('form_comments')
    .select([sql<number>`count(*) filter (where root_id is null)::int`.as('roots'), sql<number>`count(*)::int`.as('all')])
    .where('schema_code', '=', schemaCode)
    .where('object_id', '=', objectId)
    .executeTakeFirstOrThrow();
  return { roots: Number(r.roots), all: Number(r.all) };
}

export async function insertComment(edb: EngineExecutor, row: Omit<Selectable<FormCommentTable>, 'created_time' | 'files'> & { files: unknown[]; created_time: Date }): Promise<void> {
  await edb.insertInto('form_comments').values({ ...row, files: JSON.stringify(row.files) }).execute();
}

/** The ids of a thread's comments with what they answer (to find the replies under one reply). */
export async function threadLinks(edb: EngineExecutor, rootId: string): Promise<{ id: string; reply_to: string | null }[]> {
  return edb.selectFrom('form_comments').select(['id', 'reply_to']).where('root_id', '=', rootId).execute();
}

export async function deleteComments(edb: EngineExecutor, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const r = await edb.deleteFrom('form_comments').where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Active users of the engine among `ids`, with their names. */
export async function activeUsers(edb: EngineExecutor, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (!ids.length) return [];
  return edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', [...ids]).where('state', '=', 'active').execute();
}

/** Names of users (any state), by id. */
export async function userNames(edb: EngineExecutor, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

function tipsWithNames(edb: EngineExecutor) {
  return edb.selectFrom('form_task_tips as t').leftJoin('org_users as u', 'u.id', 't.created_by').selectAll('t').select('u.name as creator_name');
}

export async function findTaskTip(edb: EngineExecutor, id: string): Promise<TaskTipRow | undefined> {
  return tipsWithNames(edb).where('t.id', '=', id).executeTakeFirst();
}

export async function taskTipsOf(edb: EngineExecutor, schemaCode: string, objectId: string, states?: string[]): Promise<TaskTipRow[]> {
  let q = tipsWithNames(edb).where('t.schema_code', '=', schemaCode).where('t.object_id', '=', objectId);
  if (states?.length) q = q.where('t.state', 'in', states as ('pending' | 'cancelled' | 'done')[]);
  return q.orderBy('t.remind_time').orderBy('t.id').execute();
}

export async function insertTaskTip(edb: EngineExecutor, row: { id: string; schema_code: string; object_id: string; content: string; remind_time: Date; receiver_ids: string[]; created_by: string }): Promise<void> {
  await edb.insertInto('form_task_tips').values({ ...row, receiver_ids: JSON.stringify(row.receiver_ids) }).execute();
}

/** Moves a pending tip to `state`; answers whether it was pending. */
export async function setTaskTipState(edb: EngineExecutor, id: string, state: 'cancelled' | 'done'): Promise<boolean> {
  const r = await edb.updateTable('form_task_tips').set({ state, modified_time: new Date() }).where('id', '=', id).where('state', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteTaskTip(edb: EngineExecutor, id: string): Promise<boolean> {
  const r = await edb.deleteFrom('form_task_tips').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
