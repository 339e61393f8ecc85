import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { WorkflowTemplate, chooseRoutes, type Activity } from '@tritium/shared/workflow/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { adminFormOrThrow, latestTemplate } from './workflow.service.ts';
import { administratorsOf, resolveSources, unknownUsers } from './participants.ts';
import { readRecordRow } from './record-status.ts';

// The workflow designer's calls (docs/decisions/0018): a dry run of a template on a sample record — the path its
// conditions take and who would receive each node, resolved exactly as the engine resolves them — and the latest
// published template's activities. Nothing is written.

type Out<T extends z.ZodType> = z.output<T>;
type DryRunBody = Out<typeof contracts.WfDryRunBody>;
type Step = Out<typeof contracts.WfDryRunStep>;

async function namesOf(edb: EngineExecutor, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function templateToRun(edb: EngineExecutor, schemaCode: string, given: WorkflowTemplate | undefined) {
  if (given) return { template: given, source: 'body' as const };
  const draft = await edb.selectFrom('wf_template_drafts').select('definition').where('schema_code', '=', schemaCode).executeTakeFirst();
  if (draft) return { template: WorkflowTemplate.parse(draft.definition), source: 'draft' as const };
  const published = await latestTemplate(edb, schemaCode);
  if (published) return { template: published.template, source: 'published' as const };
  throw new AppError('WorkflowDryRunNoTemplate', { detail: { schemaCode } });
}

/**
 * Walks the template from Start as the engine would route the record: a Condition takes its first holding route or
 * its else, a Parallel every holding route, other nodes their routes. Each activity appears once (a Join after the
 * branches that reach it); participants are resolved for Fill, Approve and Circulate nodes.
 */
export async function dryRun(ctx: NodeContext, body: DryRunBody): Promise<Out<typeof contracts.WfDryRunResult>> {
  const edb = engineOf(ctx);
  const form = await adminFormOrThrow(edb, ctx, body.schemaCode);
  const { template, source } = await templateToRun(edb, form.node.code, body.template);

  let recordValues: Record<string, unknown> = {};
  let originator = body.originatorId ?? ctx.userId;
  if (body.objectId) {
    const row = await readRecordRow(edb, form.node.code, body.objectId);
    if (!row) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
    recordValues = row;
    if (!body.originatorId && typeof row.CreatedBy === 'string') originator = row.CreatedBy;
  }
  if ((await unknownUsers(edb, [originator])).length) throw new AppError('WorkflowDryRunOriginatorInvalid', { detail: { userId: originator } });
  const values = { ...recordValues, ...(body.values ?? {}) };
  const context = { originator, values };

  const byCode = new Map(template.activities.map((a) => [a.code, a]));
  const start = template.activities.find((a) => a.type === 'Start');
  const steps: Step[] = [];
  const resolved = new Map<string, string[]>();
  let administrators: string[] | undefined;
  const seen = new Set<string>();
  const queue: Activity[] = start ? [start] : [];
  while (queue.length) {
    const a = queue.shift()!;
    if (seen.has(a.code)) continue;
    seen.add(a.code);
    const out = template.routes.filter((r) => r.from === a.code);
    const taken = a.type === 'Condition' || a.type === 'Parallel' ? chooseRoutes(out, values, a.type === 'Parallel') : out;
    let ids: string[] = [];
    let whenEmpty: Step['whenEmpty'] = null;
    if (a.type === 'Start') ids = [originator];
    else if (a.type === 'Fill' || a.type === 'Approve' || a.type === 'Circulate') {
      ids = await resolveSources(edb, a.participants.sources, context);
      if (!ids.length && a.type !== 'Circulate') {
        whenEmpty = a.participants.whenEmpty;
        administrators ??= await administratorsOf(edb);
        // As the engine: nobody found goes to the administrators, unless the node passes or there is none.
        if (whenEmpty === 'administrator' && administrators.length) ids = administrators;
        else whenEmpty = 'autoPass';
      }
    }
    resolved.set(a.code, ids);
    steps.push({ code: a.code, name: a.name, type: a.type, participants: [], whenEmpty, next: taken.map((r) => ({ to: r.to, isElse: r.isElse })), blocked: a.type !== 'End' && !taken.length });
    for (const r of taken) {
      const next = byCode.get(r.to);
      if (next && !seen.has(next.code)) queue.push(next);
    }
  }
  const names = await namesOf(edb, [...resolved.values()].flat());
  for (const step of steps) step.participants = resolved.get(step.code)!.map((userId) => ({ userId, name: names.get(userId) ?? '' }));
  return {
    schemaCode: form.node.code,
    source,
    originator: { userId: originator, name: (await namesOf(edb, [originator])).get(originator) ?? '' },
    steps,
    reachesEnd: steps.some((s) => s.type === 'End'),
  };
}

/** The latest published template's activities: anyone who may open the form reads them. */
export async function templateActivityList(ctx: NodeContext, schemaCode: string): Promise<Out<typeof contracts.WfTemplateActivityListResult>> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, schemaCode);
  if (!form.isWorkflow) throw new AppError('WorkflowFormNotWorkflow', { detail: { schemaCode } });
  const published = await latestTemplate(edb, form.node.code);
  if (!published) throw new AppError('WorkflowTemplateNotPublished', { detail: { schemaCode: form.node.code } });
  return {
    schemaCode: form.node.code,
    version: published.version,
    activities: published.template.activities.map((a) => ({ code: a.code, name: a.name, type: a.type })),
  };
}
