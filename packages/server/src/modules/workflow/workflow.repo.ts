import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { WfInstanceTable, WfTokenTable, WfWorkItemTable, WfCommentTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineSchemaName } from '../../db/database.ts';
import { WriteBatch } from '../../db/write-batch.ts';
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
  dueTime: ['due_time', 'date'],
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

/**
 * The instance of an item (or the instance itself) locked, with its tokens, items and template definition — one
 * statement (docs/decisions/0101): `platform.wf_lock_and_read` locks the row, then reads with a fresh snapshot, so the
 * read sees what the lock's previous holder committed. Only a root instance: a child flow's answers undefined without
 * any lock, since its ancestors must be locked first (docs/decisions/0024), which the caller does the long way.
 * `wait: false` does not queue on the lock: while another transaction holds it, the answer is `{ busy: instanceId }`
 * (`platform.wf_try_lock_and_read`, docs/decisions/0109).
 */
export async function lockAndRead(
  edb: EngineExecutor,
  engineCode: string,
  target: { instanceId?: string; itemId?: string },
  options: { wait?: boolean } = {},
): Promise<{ state: EngineState; definition: string | undefined } | { busy: string } | undefined> {
  if (!target.instanceId && !target.itemId) return undefined;
  const fn = sql.raw(options.wait === false ? 'platform.wf_try_lock_and_read' : 'platform.wf_lock_and_read');
  type Read = { instance: Selectable<WfInstanceTable>; tokens: Selectable<WfTokenTable>[]; items: Selectable<WfWorkItemTable>[]; definition: string | null };
  const { rows } = await sql<{ r: Read | { busy: string } | null }>`
    select ${fn}(${engineSchemaName(engineCode)}, ${target.instanceId ? null : target.itemId}::uuid, ${target.instanceId ?? null}::uuid) as r`.execute(edb);
  const r = rows[0]?.r;
  if (!r) return undefined;
  if ('busy' in r) return { busy: r.busy };
  const state = { instance: instanceOf(r.instance), tokens: r.tokens.map(tokenOf), items: r.items.map(itemOf), comments: [] };
  return { state, definition: r.definition ?? undefined };
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

/**
 * Tokens and items of an instance in one statement (after lockInstance inside an action: a statement of its own, so
 * that it reads what the lock's previous holder committed), and the definition of the template it runs on as text.
 */
export async function loadStateAndTemplate(edb: EngineExecutor, instance: InstanceRec): Promise<{ state: EngineState; definition: string | undefined }> {
  const agg = (alias: string, order: string) => sql<unknown[]>`coalesce(json_agg(${sql.raw(alias)} order by ${sql.raw(order)}), '[]'::json)`;
  const row = await edb
    .selectNoFrom((eb) => [
      eb.selectFrom('wf_tokens as t').select(agg('t', 't.seq').as('j')).where('t.instance_id', '=', instance.id).as('tokens'),
      eb.selectFrom('wf_work_items as w').select(agg('w', 'w.created_time, w.id').as('j')).where('w.instance_id', '=', instance.id).as('items'),
      eb
        .selectFrom('wf_templates as d')
        .select(sql<string>`d.definition::text`.as('j'))
        .where('d.schema_code', '=', instance.schemaCode)
        .where('d.version', '=', instance.version)
        .as('definition'),
    ])
    .executeTakeFirstOrThrow();
  const tokens = (row.tokens ?? []) as Selectable<WfTokenTable>[];
  const items = (row.items ?? []) as Selectable<WfWorkItemTable>[];
  return { state: { instance, tokens: tokens.map(tokenOf), items: items.map(itemOf), comments: [] }, definition: row.definition ?? undefined };
}

/** Tokens and items of an instance (call after lockInstance inside an action). */
export async function loadState(edb: EngineExecutor, instance: InstanceRec): Promise<EngineState> {
  return (await loadStateAndTemplate(edb, instance)).state;
}

export async function loadComments(edb: EngineExecutor, instanceId: string): Promise<CommentRec[]> {
  const rows = await edb.selectFrom('wf_comments').selectAll().where('instance_id', '=', instanceId).orderBy('created_time').orderBy('id').execute();
  return rows.map(commentOf);
}

// The SQL types of the columns a batch update sets (jsonb_to_recordset reads the rows by them).
const TOKEN_TYPES = {
  id: 'uuid', seq: 'integer', activity_code: 'text', state: 'text', approval: 'integer', participants: 'jsonb', item_count: 'integer', agree_count: 'integer',
  disagree_count: 'integer', retrievable: 'boolean', pre_tokens: 'jsonb', action_event: 'text', skipped: 'boolean', created_time: 'timestamptz', finished_time: 'timestamptz',
} as const;
const ITEM_TYPES = {
  id: 'uuid', token_id: 'uuid', activity_code: 'text', item_type: 'text', kind: 'text', participant: 'text', finisher: 'text', delegant: 'text', source_item_id: 'uuid',
  state: 'text', approval: 'integer', action_event: 'text', urged: 'boolean', sort: 'integer', created_time: 'timestamptz', finished_time: 'timestamptz',
} as const;

/**
 * An update of changed rows of a table in one statement, whatever their number: rows by id, the columns any of them
 * changed set from a JSON recordset (the fewer columns, the less to build, send and write).
 */
function updateRows(edb: EngineExecutor, table: 'wf_tokens' | 'wf_work_items', types: Record<string, string>, changes: [Row, Row][]) {
  const columns = changedColumns(changes, Object.keys(types));
  // Stored as JSON text for an insert; the recordset wants the JSON value itself.
  const value = (r: Row, c: string) => (types[c] === 'jsonb' && typeof r[c] === 'string' ? JSON.parse(r[c] as string) : r[c]);
  const values = changes.map(([, r]) => Object.fromEntries(['id', ...columns].map((c) => [c, value(r, c)])));
  const definition = sql.raw(['id', ...columns].map((c) => `${c} ${types[c]}`).join(', '));
  return (edb as unknown as Kysely<any>)
    .updateTable(table)
    .from(sql`(select * from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as r(${definition}))`.as('x'))
    .set(Object.fromEntries(columns.map((c) => [c, sql.ref(`x.${c}`)])))
    .whereRef(`${table}.id`, '=', 'x.id');
}

type Row = Record<string, unknown>;

/** Two values of a record or row alike: the same, dates of the same time, JSON values of the same text. */
function alike(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (x instanceof Date && y instanceof Date) return x.getTime() === y.getTime();
  if (x !== null && y !== null && typeof x === 'object' && typeof y === 'object') return json(x) === json(y);
  return false;
}

/** Whether a record of the core differs from its loaded self (field by field: cheaper than comparing JSON texts). */
function differs(was: object, now: object): boolean {
  const a = was as Row;
  const b = now as Row;
  return Object.keys(b).some((key) => !alike(a[key], b[key]));
}

/** The columns (of `columns`, the id apart) whose value differs in any pair of rows (before, after). */
function changedColumns(changes: [Row, Row][], columns: string[]): string[] {
  return columns.filter((c) => c !== 'id' && changes.some(([was, now]) => !alike(was[c], now[c])));
}

const isOpenState = (state: string) => state === 'Waiting' || state === 'Working';

/**
 * Adds the difference between the loaded state (`before`, undefined for a new instance) and `after` to the action's
 * writes, whatever the number of participants (docs/decisions/0035, 0101): the instance, new and changed tokens,
 * changed and new items, the trace entries. New items go after the changed ones (a statement of
 * their own, `barrier`) only when one of them reopens an item for a user on a token whose open item this action
 * closes: they must not meet the one-open-item index half way, and the writes of one statement run in no set order.
 */
export function addStateWrites(batch: WriteBatch, edb: EngineExecutor, before: EngineState | undefined, after: EngineState): void {
  const id = after.instance.id;
  const oldTokens = new Map((before?.tokens ?? []).map((t) => [t.id, t]));
  const newTokens = after.tokens.filter((t) => !oldTokens.has(t.id));
  const changedTokens = after.tokens.filter((t) => oldTokens.has(t.id) && differs(oldTokens.get(t.id)!, t));
  const oldItems = new Map((before?.items ?? []).map((i) => [i.id, i]));
  const changedItems = after.items.filter((i) => oldItems.has(i.id) && differs(oldItems.get(i.id)!, i));
  const newItems = after.items.filter((i) => !oldItems.has(i.id));
  if (!before) batch.add(edb.insertInto('wf_instances').values(instanceRow(after.instance)));
  else if (differs(before.instance, after.instance)) {
    const was: Row = instanceRow(before.instance);
    const now: Row = instanceRow(after.instance);
    const patch = Object.fromEntries(changedColumns([[was, now]], Object.keys(now)).map((c) => [c, now[c]]));
    if (Object.keys(patch).length) batch.add(edb.updateTable('wf_instances').set(patch).where('id', '=', id));
  }
  if (newTokens.length) batch.add(edb.insertInto('wf_tokens').values(newTokens.map((t) => tokenRow(id, t))));
  if (changedTokens.length) batch.add(updateRows(edb, 'wf_tokens', TOKEN_TYPES, changedTokens.map((t) => [tokenRow(id, oldTokens.get(t.id)!), tokenRow(id, t)])));
  if (changedItems.length) batch.add(updateRows(edb, 'wf_work_items', ITEM_TYPES, changedItems.map((i) => [itemRow(id, oldItems.get(i.id)!), itemRow(id, i)])));
  if (after.comments.length) batch.add(edb.insertInto('wf_comments').values(after.comments.map((c) => commentRow(id, c))));
  if (!newItems.length) return;
  const closed = new Set(changedItems.filter((i) => isOpenState(oldItems.get(i.id)!.state) && !isOpenState(i.state)).map((i) => `${i.tokenId} ${i.participant}`));
  if (newItems.some((i) => isOpenState(i.state) && closed.has(`${i.tokenId} ${i.participant}`))) batch.barrier();
  batch.add(edb.insertInto('wf_work_items').values(newItems.map((i) => itemRow(id, i))));
}

/** Writes the difference between `before` and `after` now (addStateWrites in a batch of its own). */
export async function saveState(edb: EngineExecutor, before: EngineState | undefined, after: EngineState): Promise<void> {
  const batch = new WriteBatch(edb as unknown as Kysely<any>);
  addStateWrites(batch, edb, before, after);
  await batch.flush();
}
