import type { contracts } from '@tritium/shared';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import type { Out } from './workflow.tx.ts';

// The flow center's badge counts (docs/decisions/0014 "Reads"): raw numbers from indexed queries; the display caps at 99.

/** The flow center's badge counts: my open fill/approve items (todo) and my open circulate items (to-read). */
export async function todosCount(ctx: NodeContext): Promise<Out<typeof contracts.WfTodosCountResult>> {
  const rows = await engineOf(ctx)
    .selectFrom('wf_work_items')
    .select(['item_type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('participant', '=', ctx.userId)
    .where('state', 'in', ['Waiting', 'Working'])
    .groupBy('item_type')
    .execute();
  let todo = 0;
  let toRead = 0;
  for (const r of rows) {
    if (r.item_type === 'circulate') toRead += Number(r.n);
    else if (r.item_type !== 'childInstance') todo += Number(r.n);
  }
  return { todo, toRead };
}

/** Instances I started that have not finished (the apply tab's unfinished count). */
export async function unfinishedCount(ctx: NodeContext): Promise<Out<typeof contracts.WfUnfinishedCountResult>> {
  const row = await engineOf(ctx)
    .selectFrom('wf_instances')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('originator', '=', ctx.userId)
    .where('state', 'in', ['Initiated', 'Starting', 'Running', 'Finishing'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.n) };
}
