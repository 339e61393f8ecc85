import type { Kysely } from 'kysely';

/**
 * Workflow time limits (issue 21; docs/decisions/0042): a work item's deadline, set when it opens on a node with a
 * time limit. The flow center shows it and marks the open items past it; the timers that act on it are platform rows
 * (platform migration 2026-11-26T1200), so the sweep reads one table, not every engine.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wf_work_items').addColumn('due_time', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wf_work_items').dropColumn('due_time').execute();
}
