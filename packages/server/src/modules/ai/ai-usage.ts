import type { contracts } from '@tritium/shared';
import { engineDb } from '../../db/database.ts';
import { retentionSweep, type ScheduledSweep } from '../../scheduler/scheduler.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

const DAY_MS = 86_400_000;

// The usage log and the remaining credit as the administrator reads them (docs/decisions/0124); newest first, paged.

/** Usage rows are kept this many days (the scheduler's retention sweep). */
export const AI_USAGE_RETENTION_DAYS = 90;

export async function listUsage(edb: EngineExecutor, query: { pageIndex: number; pageSize: number }): Promise<contracts.AiUsageListResult> {
  const [rows, count] = await Promise.all([
    edb
      .selectFrom('ai_usage as u')
      .leftJoin('org_users as p', 'p.id', 'u.user_id')
      .select(['u.id', 'u.at', 'u.user_id', 'p.name as user_name', 'u.scene', 'u.model', 'u.prompt_tokens', 'u.completion_tokens', 'u.total_tokens', 'u.duration_ms', 'u.ok', 'u.error'])
      .orderBy('u.at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(query.pageSize)
      .offset(query.pageIndex * query.pageSize)
      .execute(),
    edb.selectFrom('ai_usage').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((r) => ({
      id: String(r.id),
      at: new Date(r.at).toISOString(),
      userId: r.user_id,
      userName: r.user_name ?? r.user_id,
      scene: r.scene,
      model: r.model,
      promptTokens: r.prompt_tokens,
      completionTokens: r.completion_tokens,
      totalTokens: r.total_tokens,
      durationMs: r.duration_ms,
      ok: r.ok,
      error: r.error,
    })),
  };
}

/** Retention of the usage log: once a day, each engine's rows older than AI_USAGE_RETENTION_DAYS go. */
export function aiUsageRetentionSweep(): ScheduledSweep {
  return retentionSweep({
    retentionMs: AI_USAGE_RETENTION_DAYS * DAY_MS,
    everyMs: DAY_MS,
    removeBefore: async (db, engineCode, cutoff) => Number((await engineDb(db, engineCode).deleteFrom('ai_usage').where('at', '<', cutoff).executeTakeFirst()).numDeletedRows),
  });
}
