import type { z } from 'zod';
import type { Expression, SqlBool } from 'kysely';
import type { contracts } from '@tritium/shared';
import { WorkflowTemplate } from '@tritium/shared/workflow/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';

// The flow center's lists (流程中心; docs/decisions/0019): 待办 todo, 待阅 toRead, 我发起的 apply, 已办 done, 全部 all.
// Every tab is a query on the caller's own rows (participant or originator on indexed columns), paged in SQL; the
// page's rows then get their form names, originator names and current activities in one query each.

type Out<T extends z.ZodType> = z.output<T>;
type ListBody = Out<typeof contracts.FlowCenterListBody>;
type Row = Out<typeof contracts.FlowCenterRow>;

const OPEN = ['Waiting', 'Working'];
const DONE = ['Finished', 'Forwarded', 'FinishedAndForwarded'];
const INSTANCE_STATES: Record<ListBody['instanceState'], string[] | null> = {
  running: ['Initiated', 'Starting', 'Running', 'Finishing'],
  finished: ['Finished'],
  canceled: ['Canceled'],
  all: null,
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
/** `%kw%` with LIKE's wildcards taken literally (backslash is PostgreSQL's default LIKE escape). */
const containing = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface BaseRow {
  id: string;
  schema_code: string;
  object_id: string;
  name: string;
  originator: string;
  state: string;
  approval: number;
  template_version: number;
  created_time: Date;
  finished_time: Date | null;
}
interface ItemPart {
  work_item_id: string | null;
  item_type: string | null;
  activity_code: string | null;
  item_state: string | null;
  received_time: Date;
  item_finished_time: Date | null;
  urged: boolean;
  due_time: Date | null;
}

const INSTANCE_COLUMNS = ['i.id', 'i.schema_code', 'i.object_id', 'i.name', 'i.originator', 'i.state', 'i.approval', 'i.template_version', 'i.created_time', 'i.finished_time'] as const;

/** The todo, toRead and done tabs: one row per work item of mine. */
async function itemRows(edb: EngineExecutor, userId: string, body: ListBody, approveOnly: boolean): Promise<{ rows: (BaseRow & ItemPart)[]; total: number }> {
  let q = edb.selectFrom('wf_work_items as w').innerJoin('wf_instances as i', 'i.id', 'w.instance_id').where('w.participant', '=', userId);
  // A child-instance item only holds its node while the child flow runs: nobody's todo.
  if (body.tab === 'todo') q = q.where('w.state', 'in', OPEN).where('w.item_type', 'in', ['fill', 'approve']);
  else if (body.tab === 'done') q = q.where('w.state', 'in', DONE).where('w.item_type', 'in', ['fill', 'approve']);
  else {
    const states = body.readState === 'unread' ? OPEN : body.readState === 'read' ? ['Finished'] : [...OPEN, 'Finished'];
    q = q.where('w.item_type', '=', 'circulate').where('w.state', 'in', states);
  }
  if (approveOnly) q = q.where('w.item_type', '=', 'approve');
  if (body.schemaCode) q = q.where('i.schema_code', '=', body.schemaCode);
  if (body.keyword) q = q.where('i.name', 'ilike', containing(body.keyword));
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const ordered = body.tab === 'done' ? q.orderBy('w.finished_time', 'desc') : q.orderBy('w.created_time', 'desc');
  const rows = await ordered
    .select([...INSTANCE_COLUMNS, 'w.id as work_item_id', 'w.item_type', 'w.activity_code', 'w.state as item_state', 'w.created_time as received_time', 'w.finished_time as item_finished_time', 'w.urged', 'w.due_time'])
    .orderBy('w.id', 'desc')
    .limit(body.pageSize)
    .offset(body.pageIndex * body.pageSize)
    .execute();
  return { rows, total };
}

/** The apply and all tabs: one row per instance I started (apply) or take part in (all). */
async function instanceRows(edb: EngineExecutor, userId: string, body: ListBody): Promise<{ rows: (BaseRow & ItemPart)[]; total: number }> {
  let q = edb.selectFrom('wf_instances as i');
  if (body.tab === 'apply') q = q.where('i.originator', '=', userId);
  else {
    q = q.where((eb): Expression<SqlBool> =>
      eb.or([eb('i.originator', '=', userId), eb('i.id', 'in', eb.selectFrom('wf_work_items').select('instance_id').where('participant', '=', userId))]),
    );
  }
  const states = INSTANCE_STATES[body.instanceState];
  if (states) q = q.where('i.state', 'in', states);
  if (body.schemaCode) q = q.where('i.schema_code', '=', body.schemaCode);
  if (body.keyword) q = q.where('i.name', 'ilike', containing(body.keyword));
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .select(INSTANCE_COLUMNS)
    .select((eb) =>
      eb
        .exists(eb.selectFrom('wf_work_items as u').select('u.id').whereRef('u.instance_id', '=', 'i.id').where('u.urged', '=', true).where('u.state', 'in', OPEN))
        .as('urged'),
    )
    .orderBy('i.created_time', 'desc')
    .orderBy('i.id', 'desc')
    .limit(body.pageSize)
    .offset(body.pageIndex * body.pageSize)
    .execute();
  return {
    rows: rows.map((r) => ({ ...r, urged: !!r.urged, work_item_id: null, item_type: null, activity_code: null, item_state: null, received_time: r.created_time, item_finished_time: null, due_time: null })),
    total,
  };
}

/** Form names, originator names and activity names for one page. */
async function present(edb: EngineExecutor, rows: (BaseRow & ItemPart)[], now: Date): Promise<Row[]> {
  if (!rows.length) return [];
  const schemaCodes = [...new Set(rows.map((r) => r.schema_code))];
  const instanceIds = [...new Set(rows.map((r) => r.id))];
  const [forms, users, tokens, templates] = await Promise.all([
    edb.selectFrom('function_nodes').select(['code', 'display_name', 'app_code']).where('code', 'in', schemaCodes).execute(),
    edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', [...new Set(rows.map((r) => r.originator))]).execute(),
    edb.selectFrom('wf_tokens').select(['instance_id', 'activity_code']).where('instance_id', 'in', instanceIds).where('state', '=', 'Running').orderBy('seq').execute(),
    edb
      .selectFrom('wf_templates')
      .select(['schema_code', 'version', 'definition'])
      .where((eb) => eb.or([...new Set(rows.map((r) => `${r.schema_code}\u0000${r.template_version}`))].map((k) => { const [s, v] = k.split('\u0000'); return eb.and([eb('schema_code', '=', s), eb('version', '=', Number(v))]); })))
      .execute(),
  ]);
  const formOf = new Map(forms.map((f) => [f.code, f]));
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  const activityNames = new Map<string, Map<string, string>>();
  for (const t of templates) {
    const parsed = WorkflowTemplate.safeParse(t.definition);
    activityNames.set(`${t.schema_code}\u0000${t.version}`, new Map(parsed.success ? parsed.data.activities.map((a) => [a.code, a.name]) : []));
  }
  const running = new Map<string, string[]>();
  for (const t of tokens) running.set(t.instance_id, [...new Set([...(running.get(t.instance_id) ?? []), t.activity_code])]);
  return rows.map((r) => {
    const names = activityNames.get(`${r.schema_code}\u0000${r.template_version}`);
    const activity = (code: string) => ({ code, name: names?.get(code) ?? code });
    return {
      instanceId: r.id,
      schemaCode: r.schema_code,
      objectId: r.object_id,
      instanceName: r.name,
      formName: formOf.get(r.schema_code)?.display_name ?? r.schema_code,
      appCode: formOf.get(r.schema_code)?.app_code ?? null,
      originator: r.originator,
      originatorName: nameOf.get(r.originator) ?? '',
      instanceState: r.state,
      approval: r.approval,
      currentActivities: (running.get(r.id) ?? []).map(activity),
      startTime: iso(r.created_time)!,
      finishedTime: iso(r.finished_time),
      workItemId: r.work_item_id,
      itemType: r.item_type,
      activityCode: r.activity_code,
      activityName: r.activity_code ? activity(r.activity_code).name : null,
      itemState: r.item_state,
      receivedTime: iso(r.received_time)!,
      itemFinishedTime: iso(r.item_finished_time),
      urged: r.urged,
      dueTime: iso(r.due_time),
      overdue: !!r.due_time && !!r.item_state && OPEN.includes(r.item_state) && new Date(r.due_time).getTime() <= now.getTime(),
    };
  });
}

/** POST /v1/workflow/todos/list: one tab of the flow center, newest first (`approveOnly`: the rapid-approval list). */
export async function listTab(ctx: NodeContext, body: ListBody, options: { approveOnly?: boolean; now?: Date } = {}): Promise<Out<typeof contracts.FlowCenterListResult>> {
  const edb = engineOf(ctx);
  const { rows, total } = body.tab === 'apply' || body.tab === 'all' ? await instanceRows(edb, ctx.userId, body) : await itemRows(edb, ctx.userId, body, !!options.approveOnly);
  return { list: await present(edb, rows, options.now ?? new Date()), total, hasMore: (body.pageIndex + 1) * body.pageSize < total };
}

/** GET /v1/workflow/todos/forms: the forms of the flows I started or take part in (the form filter). */
export async function listForms(ctx: NodeContext): Promise<Out<typeof contracts.FlowCenterFormsResult>> {
  const edb = engineOf(ctx);
  const rows = await edb
    .selectFrom('wf_instances as i')
    .innerJoin('function_nodes as f', 'f.code', 'i.schema_code')
    .select(['i.schema_code', 'f.display_name'])
    .where((eb) => eb.or([eb('i.originator', '=', ctx.userId), eb('i.id', 'in', eb.selectFrom('wf_work_items').select('instance_id').where('participant', '=', ctx.userId))]))
    .groupBy(['i.schema_code', 'f.display_name'])
    .orderBy('f.display_name')
    .execute();
  return { list: rows.map((r) => ({ schemaCode: r.schema_code, formName: r.display_name })) };
}
