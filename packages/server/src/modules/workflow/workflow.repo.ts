import type { Insertable, Selectable } from 'kysely';
import type { WfInstanceTable, WfTokenTable, WfWorkItemTable, WfCommentTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { CommentRec, EngineState, InstanceRec, ItemRec, TokenRec } from './workflow.core.ts';
import { recordOf, rowOf, type ColumnMap } from './row-mapping.ts';

// The engine's rows ⇄ the core's records. Ids are UUID v7 (monotonic within a process), so rows written by one action
// at the same time keep their order by id.
// An action loads the instance under its row lock, then its tokens and items,
// and writes back only what changed (new rows inserted, changed rows updated; nothing deleted).

const json = (v: unknown) => JSON.stringify(v);

// Each record's fields and their columns, once: read and written through row-mapping.ts.
const INSTANCE = {
  id: 'id',
  schemaCode: 'schema_code',
  objectId: 'object_id',
  version: 'template_version',
  originator: 'originator',
  name: 'name',
  state: 'state',
  approval: 'approval',
  nextSeq: 'next_seq',
  createdTime: ['created_time', 'date'],
  modifiedTime: ['modified_time', 'date'],
  finishedTime: ['finished_time', 'date'],
  parentInstanceId: 'parent_instance_id',
  parentTokenId: 'parent_token_id',
} as const satisfies ColumnMap<InstanceRec, WfInstanceTable>;

const TOKEN = {
  id: 'id',
  seq: 'seq',
  activityCode: 'activity_code',
  state: 'state',
  approval: 'approval',
  participants: ['participants', 'json'],
  itemCount: 'item_count',
  agreeCount: 'agree_count',
  disagreeCount: 'disagree_count',
  retrievable: 'retrievable',
  preTokens: ['pre_tokens', 'json'],
  actionEvent: 'action_event',
  skipped: 'skipped',
  createdTime: ['created_time', 'date'],
  finishedTime: ['finished_time', 'date'],
} as const satisfies ColumnMap<TokenRec, WfTokenTable>;

const ITEM = {
  id: 'id',
  tokenId: 'token_id',
  activityCode: 'activity_code',
  itemType: 'item_type',
  kind: 'kind',
  participant: 'participant',
  finisher: 'finisher',
  delegant: 'delegant',
  sourceItemId: 'source_item_id',
  state: 'state',
  approval: 'approval',
  actionEvent: 'action_event',
  urged: 'urged',
  sort: 'sort',
  createdTime: ['created_time', 'date'],
  finishedTime: ['finished_time', 'date'],
} as const satisfies ColumnMap<ItemRec, WfWorkItemTable>;

const COMMENT = {
  id: 'id',
  tokenId: 'token_id',
  workItemId: 'work_item_id',
  activityCode: 'activity_code',
  userId: 'user_id',
  action: 'action',
  text: 'text',
  approval: 'approval',
  signature: 'signature',
  attachmentIds: ['attachment_ids', 'json'],
  receivers: ['receivers', 'json'],
  createdTime: ['created_time', 'date'],
} as const satisfies ColumnMap<CommentRec, WfCommentTable>;

export const instanceOf = (r: Selectable<WfInstanceTable>): InstanceRec => recordOf<InstanceRec>(INSTANCE, r);
export const tokenOf = (r: Selectable<WfTokenTable>): TokenRec => recordOf<TokenRec>(TOKEN, r);
export const itemOf = (r: Selectable<WfWorkItemTable>): ItemRec => recordOf<ItemRec>(ITEM, r);
export const commentOf = (r: Selectable<WfCommentTable>): CommentRec => recordOf<CommentRec>(COMMENT, r);

const instanceRow = (i: InstanceRec) => rowOf<Insertable<WfInstanceTable>>(INSTANCE, i);
const tokenRow = (instanceId: string, t: TokenRec) => ({ ...rowOf<Insertable<WfTokenTable>>(TOKEN, t), instance_id: instanceId });
const itemRow = (instanceId: string, i: ItemRec) => ({ ...rowOf<Insertable<WfWorkItemTable>>(ITEM, i), instance_id: instanceId });
const commentRow = (instanceId: string, c: CommentRec) => ({ ...rowOf<Insertable<WfCommentTable>>(COMMENT, c), instance_id: instanceId });

/** The instance row, locked for the rest of the transaction (workflow.md: every action locks it first). */
export async function lockInstance(edb: EngineExecutor, instanceId: string): Promise<InstanceRec | undefined> {
  const row = await edb.selectFrom('wf_instances').selectAll().where('id', '=', instanceId).forUpdate().executeTakeFirst();
  return row ? instanceOf(row) : undefined;
}

export async function findInstance(edb: EngineExecutor, instanceId: string): Promise<InstanceRec | undefined> {
  const row = await edb.selectFrom('wf_instances').selectAll().where('id', '=', instanceId).executeTakeFirst();
  return row ? instanceOf(row) : undefined;
}

export async function findInstanceByRecord(edb: EngineExecutor, schemaCode: string, objectId: string): Promise<InstanceRec | undefined> {
  const row = await edb.selectFrom('wf_instances').selectAll().where('schema_code', '=', schemaCode).where('object_id', '=', objectId).executeTakeFirst();
  return row ? instanceOf(row) : undefined;
}

export async function instanceIdOfItem(edb: EngineExecutor, itemId: string): Promise<string | undefined> {
  const row = await edb.selectFrom('wf_work_items').select('instance_id').where('id', '=', itemId).executeTakeFirst();
  return row?.instance_id;
}

/** Tokens and items of an instance (call after lockInstance inside an action). */
export async function loadState(edb: EngineExecutor, instance: InstanceRec): Promise<EngineState> {
  const tokens = await edb.selectFrom('wf_tokens').selectAll().where('instance_id', '=', instance.id).orderBy('seq').execute();
  const items = await edb.selectFrom('wf_work_items').selectAll().where('instance_id', '=', instance.id).orderBy('created_time').orderBy('id').execute();
  return { instance, tokens: tokens.map(tokenOf), items: items.map(itemOf), comments: [] };
}

export async function loadComments(edb: EngineExecutor, instanceId: string): Promise<CommentRec[]> {
  const rows = await edb.selectFrom('wf_comments').selectAll().where('instance_id', '=', instanceId).orderBy('created_time').orderBy('id').execute();
  return rows.map(commentOf);
}

/** Writes the difference between the loaded state (`before`, undefined for a new instance) and `after`. */
export async function saveState(edb: EngineExecutor, before: EngineState | undefined, after: EngineState): Promise<void> {
  const id = after.instance.id;
  if (!before) await edb.insertInto('wf_instances').values(instanceRow(after.instance)).execute();
  else if (json(before.instance) !== json(after.instance)) {
    const { id: _id, ...patch } = instanceRow(after.instance);
    await edb.updateTable('wf_instances').set(patch).where('id', '=', id).execute();
  }
  const oldTokens = new Map((before?.tokens ?? []).map((t) => [t.id, json(t)]));
  const newTokens = after.tokens.filter((t) => !oldTokens.has(t.id));
  if (newTokens.length) await edb.insertInto('wf_tokens').values(newTokens.map((t) => tokenRow(id, t))).execute();
  for (const t of after.tokens) {
    const old = oldTokens.get(t.id);
    if (old !== undefined && old !== json(t)) {
      const { id: tokenId, instance_id: _i, ...patch } = tokenRow(id, t);
      await edb.updateTable('wf_tokens').set(patch).where('id', '=', tokenId).execute();
    }
  }
  const oldItems = new Map((before?.items ?? []).map((i) => [i.id, json(i)]));
  // Changed items first: an item closed and a new one opened for the same user on the same token (forward back,
  // reactivation) must not meet the one-open-item index half way.
  for (const i of after.items) {
    const old = oldItems.get(i.id);
    if (old !== undefined && old !== json(i)) {
      const { id: itemId, instance_id: _i, ...patch } = itemRow(id, i);
      await edb.updateTable('wf_work_items').set(patch).where('id', '=', itemId).execute();
    }
  }
  const newItems = after.items.filter((i) => !oldItems.has(i.id));
  if (newItems.length) await edb.insertInto('wf_work_items').values(newItems.map((i) => itemRow(id, i))).execute();
  if (after.comments.length) await edb.insertInto('wf_comments').values(after.comments.map((c) => commentRow(id, c))).execute();
}
