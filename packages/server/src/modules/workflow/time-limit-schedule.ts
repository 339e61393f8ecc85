import { firstUrgeOf, timeLimitOf, type WorkflowTemplate } from '@tritium/shared/workflow/index';
import type { Db } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { EngineState } from './workflow.core-types.ts';

// Workflow time limits (docs/decisions/0042): the timers an action schedules for the items it opened — a platform row
// at each deadline and one at each first urge, in the action's transaction. The sweep (time-limit-timers.ts) acts
// on them; people's actions never touch existing rows.

/** The insert of the timers of the items this action opened, a write of its statement (none when no new item has a time limit). */
export function timeLimitTimers(edb: EngineExecutor, engineCode: string, template: WorkflowTemplate, before: EngineState | undefined, after: EngineState) {
  const existed = new Set(before?.items.map((i) => i.id));
  const rows: { engine_code: string; work_item_id: string; kind: 'timeout' | 'urge'; fire_at: Date }[] = [];
  for (const item of after.items) {
    if (existed.has(item.id) || !item.dueTime) continue;
    rows.push({ engine_code: engineCode, work_item_id: item.id, kind: 'timeout', fire_at: item.dueTime });
    const activity = template.activities.find((a) => a.code === item.activityCode);
    const urge = firstUrgeOf(timeLimitOf(activity), item.createdTime);
    if (urge) rows.push({ engine_code: engineCode, work_item_id: item.id, kind: 'urge', fire_at: urge });
  }
  return rows.length ? (edb as unknown as Db).insertInto('platform.workflow_timers').values(rows) : undefined;
}
