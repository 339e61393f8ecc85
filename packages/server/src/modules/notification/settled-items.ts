import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// A reminder or a message about a work item (新的待办, 转交, 加签…) is settled once that item is handled, by whatever
// way — the form, 快速审批, another approver's vote, a cancel, a time limit: it reads as read from then on, so no
// "new to-do" stays for an item already done and the bell counts only what still waits (docs/decisions/0111). It is
// decided when reading, so the approval path writes nothing more.

/** Still unread: `state` is unread and the work item the row names, if any, is still open. */
export function stillUnreadSql(edb: EngineExecutor, alias: string, stateColumn: string): RawBuilder<SqlBool> {
  const settled = edb
    .selectFrom('wf_work_items as settled_item')
    .select(sql.lit(1).as('one'))
    .whereRef('settled_item.id', '=', sql.ref(`${alias}.work_item_id`))
    .where('settled_item.state', 'not in', ['Waiting', 'Working']);
  return sql<SqlBool>`(${sql.ref(`${alias}.${stateColumn}`)} = 'unread' and not exists (${settled}))`;
}
