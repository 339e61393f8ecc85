import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// Removing workflow instances together with the records they belong to (docs/decisions/0031: rolling back an
// import into a workflow form). Everything an instance holds goes: its reminders, comments, work items and tokens.
// An instance that started child flows is not removed here (their records belong to other forms): callers check
// `hasChildInstances` first. Runs in the caller's transaction; the records are the caller's.

/** The instance started child flows. */
export async function hasChildInstances(edb: EngineExecutor, id: string): Promise<boolean> {
  return !!(await edb.selectFrom('wf_instances').select('id').where('parent_instance_id', '=', id).limit(1).executeTakeFirst());
}

/** Removes the instances `ids` with their reminders, comments, work items and tokens; answers how many went. */
export async function removeInstances(edb: EngineExecutor, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  await edb.deleteFrom('remind_tasks').where('instance_id', 'in', [...ids]).execute();
  await edb.deleteFrom('wf_comments').where('instance_id', 'in', [...ids]).execute();
  await edb.deleteFrom('wf_work_items').where('instance_id', 'in', [...ids]).execute();
  await edb.deleteFrom('wf_tokens').where('instance_id', 'in', [...ids]).execute();
  const r = await edb.deleteFrom('wf_instances').where('id', 'in', [...ids]).executeTakeFirst();
  return Number(r.numDeletedRows);
}
