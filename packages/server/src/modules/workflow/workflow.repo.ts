import type { Selectable } from 'kysely';
import type { WfInstanceTable, WfTokenTable, WfWorkItemTable, WfCommentTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { CommentRec, EngineState, InstanceRec, ItemRec, TokenRec } from './workflow.core.ts';

// The engine's rows ⇄ the core's records. Ids are UUID v7 (monotonic within a process), so rows written by one action
// at the same time keep their order by id.
// An action loads the instance under its row lock, then its tokens and items,
// and writes back only what changed (new rows inserted, changed rows updated; nothing deleted).

const json = (v: unknown) => JSON.stringify(v);
const date = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

export function instanceOf(r: Selectable<WfInstanceTable>): InstanceRec {
  return {
    id: r.id,
    schemaCode: r.schema_code,
    objectId: r.object_id,
    version: r.template_version,
    originator: r.originator,
    name: r.name,
    state: r.state as InstanceRec['state'],
    approval: r.approval as InstanceRec['approval'],
    nextSeq: r.next_seq,
    createdTime: date(r.created_time)!,
    modifiedTime: date(r.modified_time)!,
    finishedTime: date(r.finished_time),
    parentInstanceId: r.parent_instance_id,
    parentTokenId: r.parent_token_id,
  };
}

export function tokenOf(r: Selectable<WfTokenTable>): TokenRec {
  return {
    id: r.id,
    seq: r.seq,
    activityCode: r.activity_code,
    state: r.state as TokenRec['state'],
    approval: r.approval as TokenRec['approval'],
    participants: r.participants,
    itemCount: r.item_count,
    agreeCount: r.agree_count,
    disagreeCount: r.disagree_count,
    retrievable: r.retrievable,
    preTokens: r.pre_tokens,
    actionEvent: r.action_event as TokenRec['actionEvent'],
    skipped: r.skipped,
    createdTime: date(r.created_time)!,
    finishedTime: date(r.finished_time),
  };
}

export function itemOf(r: Selectable<WfWorkItemTable>): ItemRec {
  return {
    id: r.id,
    tokenId: r.token_id,
    activityCode: r.activity_code,
    itemType: r.item_type as ItemRec['itemType'],
    kind: r.kind as ItemRec['kind'],
    participant: r.participant,
    finisher: r.finisher,
    delegant: r.delegant,
    sourceItemId: r.source_item_id,
    state: r.state as ItemRec['state'],
    approval: r.approval as ItemRec['approval'],
    actionEvent: r.action_event as ItemRec['actionEvent'],
    urged: r.urged,
    sort: r.sort,
    createdTime: date(r.created_time)!,
    finishedTime: date(r.finished_time),
  };
}

export function commentOf(r: Selectable<WfCommentTable>): CommentRec {
  return {
    id: r.id,
    tokenId: r.token_id,
    workItemId: r.work_item_id,
    activityCode: r.activity_code,
    userId: r.user_id,
    action: r.action,
    text: r.text,
    approval: r.approval as CommentRec['approval'],
    signature: r.signature,
    attachmentIds: r.attachment_ids,
    receivers: r.receivers,
    createdTime: date(r.created_time)!,
  };
}

const instanceRow = (i: InstanceRec) => ({
  id: i.id,
  schema_code: i.schemaCode,
  object_id: i.objectId,
  template_version: i.version,
  originator: i.originator,
  name: i.name,
  state: i.state,
  approval: i.approval,
  next_seq: i.nextSeq,
  created_time: i.createdTime,
  modified_time: i.modifiedTime,
  finished_time: i.finishedTime,
  parent_instance_id: i.parentInstanceId,
  parent_token_id: i.parentTokenId,
});

const tokenRow = (instanceId: string, t: TokenRec) => ({
  id: t.id,
  instance_id: instanceId,
  seq: t.seq,
  activity_code: t.activityCode,
  state: t.state,
  approval: t.approval,
  participants: json(t.participants),
  item_count: t.itemCount,
  agree_count: t.agreeCount,
  disagree_count: t.disagreeCount,
  retrievable: t.retrievable,
  pre_tokens: json(t.preTokens),
  action_event: t.actionEvent,
  skipped: t.skipped,
  created_time: t.createdTime,
  finished_time: t.finishedTime,
});

const itemRow = (instanceId: string, i: ItemRec) => ({
  id: i.id,
  instance_id: instanceId,
  token_id: i.tokenId,
  activity_code: i.activityCode,
  item_type: i.itemType,
  kind: i.kind,
  participant: i.participant,
  finisher: i.finisher,
  delegant: i.delegant,
  source_item_id: i.sourceItemId,
  state: i.state,
  approval: i.approval,
  action_event: i.actionEvent,
  urged: i.urged,
  sort: i.sort,
  created_time: i.createdTime,
  finished_time: i.finishedTime,
});

const commentRow = (instanceId: string, c: CommentRec) => ({
  id: c.id,
  instance_id: instanceId,
  token_id: c.tokenId,
  work_item_id: c.workItemId,
  activity_code: c.activityCode,
  user_id: c.userId,
  action: c.action,
  text: c.text,
  approval: c.approval,
  signature: c.signature,
  attachment_ids: json(c.attachmentIds),
  receivers: json(c.receivers),
  created_time: c.createdTime,
});

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
