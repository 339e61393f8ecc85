import { sql, type Transaction } from 'kysely';
import { timeLimitOf, type TimeLimit } from '@tritium/shared/workflow/index';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { joinedDb } from '../../db/joined-transaction.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { notifyEach } from '../notification/notify.ts';
import { managerChain } from './participants.ts';
import { templateFromText } from './workflow-templates.ts';
import { act, type WorkflowAction } from './workflow.service.ts';

// What a workflow timer does when it falls due (issue 21 "Workflow time limits"; docs/decisions/0042). A deadline:
// remind the holder, or act for them through the engine's own actions — Submit (自动通过), Reject (自动驳回),
// Forward to the node's named user (转交) or to the holder's manager (升级) — recorded as the holder's action with
// the opinion saying it was the time limit, so the flow moves on exactly as if they had acted. An action the engine
// refuses (the receiver is the holder, already holds an item of the node, has left; nobody manages the holder)
// becomes a reminder. A scheduled urge: a 催办 message and the item marked urged, again every N hours until it closes.

export interface DueTimer {
  engineCode: string;
  workItemId: string;
  kind: 'timeout' | 'urge';
  fireAt: Date;
}

interface OpenItem {
  id: string;
  participant: string;
  activityCode: string;
  instanceId: string;
  instanceName: string;
  schemaCode: string;
  objectId: string;
  dueTime: Date | null;
  limit: TimeLimit | null;
}

/** The item if it is still open on a running flow, with its node's time limit (from the instance's template version). */
async function openItem(edb: EngineExecutor, workItemId: string): Promise<OpenItem | undefined> {
  const row = await edb
    .selectFrom('wf_work_items as w')
    .innerJoin('wf_instances as i', 'i.id', 'w.instance_id')
    .innerJoin('wf_templates as t', (j) => j.onRef('t.schema_code', '=', 'i.schema_code').onRef('t.version', '=', 'i.template_version'))
    .select(['w.id', 'w.participant', 'w.activity_code', 'w.due_time', 'i.id as instance_id', 'i.name', 'i.schema_code', 'i.object_id', sql<string>`t.definition::text`.as('definition')])
    .where('w.id', '=', workItemId)
    .where('w.state', 'in', ['Waiting', 'Working'])
    .where('i.state', 'in', ['Starting', 'Running'])
    .executeTakeFirst();
  if (!row) return undefined;
  const activity = templateFromText(row.definition).activities.find((a) => a.code === row.activity_code);
  return {
    id: row.id,
    participant: row.participant,
    activityCode: row.activity_code,
    instanceId: row.instance_id,
    instanceName: row.name,
    schemaCode: row.schema_code,
    objectId: row.object_id,
    dueTime: row.due_time ? new Date(row.due_time) : null,
    limit: timeLimitOf(activity),
  };
}

const TIMEOUT_OPINIONS = { approve: '超时自动通过', reject: '超时自动驳回', transfer: '超时自动转交', escalate: '超时转交主管' } as const;

/** The engine action a deadline takes, or undefined when it only reminds (or the action has nobody to go to). */
async function timeoutAction(edb: EngineExecutor, item: OpenItem, limit: TimeLimit): Promise<WorkflowAction | undefined> {
  const opinion = limit.onTimeout === 'remind' ? undefined : { text: TIMEOUT_OPINIONS[limit.onTimeout] };
  switch (limit.onTimeout) {
    case 'approve':
      return { type: 'submit', itemId: item.id, opinion };
    case 'reject':
      return { type: 'reject', itemId: item.id, opinion };
    case 'transfer':
      return limit.transferTo && limit.transferTo !== item.participant ? { type: 'forward', itemId: item.id, to: limit.transferTo, opinion } : undefined;
    case 'escalate': {
      const [manager] = await managerChain(edb, item.participant, 1);
      return manager ? { type: 'forward', itemId: item.id, to: manager, opinion } : undefined;
    }
    default:
      return undefined;
  }
}

/** Runs the action as the holder in the sweep's transaction; false (and nothing written) when the engine refuses it. */
async function actAsHolder(trx: Transaction<PlatformDb>, engineCode: string, item: OpenItem, action: WorkflowAction, now: Date): Promise<boolean> {
  const ctx: NodeContext = { db: joinedDb(trx), engineCode, userId: item.participant, authType: UserAuthType.Personal };
  await sql`savepoint workflow_timeout`.execute(trx);
  try {
    await act(ctx, { itemId: item.id }, action, undefined, { bySystem: true, now });
    await sql`release savepoint workflow_timeout`.execute(trx);
    return true;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await sql`rollback to savepoint workflow_timeout`.execute(trx);
    return false;
  }
}

const formatDue = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

async function remind(edb: EngineExecutor, engineCode: string, item: OpenItem, title: string, content: string): Promise<void> {
  await edb.updateTable('wf_work_items').set({ urged: true }).where('id', '=', item.id).execute();
  const link = { schemaCode: item.schemaCode, objectId: item.objectId, instanceId: item.instanceId, workItemId: item.id };
  await notifyEach(edb, engineCode, [{ receiver: item.participant, notice: { category: 'workflow', title: `${title}：${item.instanceName}`, content, sender: null, link } }]);
}

/**
 * Handles one due timer in the sweep's transaction. Answers the urge interval in hours when the timer should fire
 * again (a scheduled urge of an item still open), else null (the timer is done).
 */
export async function handleTimer(trx: Transaction<PlatformDb>, timer: DueTimer, now: Date): Promise<number | null> {
  const edb = engineDb(trx, timer.engineCode);
  const item = await openItem(edb, timer.workItemId);
  if (!item?.limit) return null;
  const due = item.dueTime ? `，办理期限 ${formatDue(item.dueTime)}（北京时间）` : '';
  if (timer.kind === 'urge') {
    if (!item.limit.urgeEveryHours) return null;
    await remind(edb, timer.engineCode, item, '催办', `请尽快处理${due}`);
    return item.limit.urgeEveryHours;
  }
  const action = await timeoutAction(edb, item, item.limit);
  if (action && (await actAsHolder(trx, timer.engineCode, item, action, now))) return null;
  await remind(edb, timer.engineCode, item, '已超时', `待办已超过办理期限${due}，请尽快处理`);
  return null;
}
