import { z } from 'zod';
import { FILTER_OPERATORS } from '@tritium/shared/constants/formats';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { Filter } from '@tritium/shared/query/filter';
import { AppError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { engineOf, loadAppViews, viewerOf } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { isHidden } from '../permission/form-rights.ts';
import { columnStat, countRecords, distinctValues, queryRecords } from '../query/query.service.ts';
import type { contracts } from '@tritium/shared';
import { DRAFT_TOOL, DraftArgs, draftRecord } from './draft-record.ts';

// The assistant's tools over the organisation's data (docs/decisions/0124): every one runs as the person asking,
// through the query engine — their apps and forms, their data scope, their field rights (a hidden field is no column
// for them: it cannot be read, filtered on or summed). What a tool answers goes to the model; the records it read go
// to the browser as citations.

export interface Citation {
  schemaCode: string;
  objectId: string;
  title: string;
}

export interface ToolOutcome {
  /** What the model reads (JSON). */
  result: unknown;
  citations: Citation[];
  /** A record drafted for the person to check and save (draft_record; docs/decisions/0126). */
  draft?: contracts.RecordDraft | null;
}

const FORM_TYPES: readonly number[] = [FunctionNodeType.FormModule, FunctionNodeType.WorkflowModule];
const RECORDS_MAX = 20;
const GROUPS_MAX = 20;

const LeafArg = z.strictObject({ field: z.string(), operator: z.enum(FILTER_OPERATORS), value: z.unknown().optional() });
const FilterArg = z.array(LeafArg).max(20).optional();
const ListFormsArgs = z.strictObject({});
const DescribeArgs = z.strictObject({ schemaCode: z.string().min(1).max(64) });
const FindArgs = z.strictObject({
  schemaCode: z.string().min(1).max(64),
  filters: FilterArg,
  sort: z.strictObject({ field: z.string(), direction: z.enum(['asc', 'desc']) }).optional(),
  limit: z.number().int().min(1).max(RECORDS_MAX).optional(),
});
const AggregateArgs = z.strictObject({
  schemaCode: z.string().min(1).max(64),
  filters: FilterArg,
  /** A number field to sum, average and bound; absent: records are counted. */
  field: z.string().optional(),
  groupBy: z.string().optional(),
});

/** The And of the model's leaves, checked by the filter model like any other caller's. */
function filterOf(leaves: z.infer<typeof LeafArg>[] | undefined) {
  if (!leaves?.length) return undefined;
  const parsed = Filter.safeParse({ type: 'And', children: leaves });
  if (!parsed.success) throw new AppError('ParameterVerificationFailed', { message: `条件无效：${parsed.error.issues[0]?.message ?? ''}` });
  return parsed.data;
}

const label = (options: Record<string, unknown>, code: string) => (typeof options.displayName === 'string' && options.displayName ? options.displayName : code);

/** The fields of a form the person may see, with their names, types and choices. */
function visibleFields(form: RuntimeForm) {
  return form.fields
    .filter((f) => !isHidden(form.rights, f.code))
    .map((f) => {
      const listed = Array.isArray(f.options.defaultItems) ? (f.options.defaultItems as unknown[]) : undefined;
      const items = listed?.map((o) => (typeof o === 'object' && o && 'value' in o ? (o as { value: unknown }).value : o)).slice(0, 30);
      return { code: f.code, name: label(f.options, f.code), type: f.type.key, ...(items?.length ? { choices: items } : {}) };
    });
}

/** A record as the model reads it: its title and the visible fields' values (the list already left hidden ones out). */
function recordFor(form: RuntimeForm, row: Record<string, unknown>) {
  const values: Record<string, unknown> = {};
  for (const f of visibleFields(form)) if (row[f.code] !== undefined && row[f.code] !== null && row[f.code] !== '') values[f.name] = row[f.code];
  return { objectId: String(row.ObjectId), title: String(row.Name ?? ''), createdTime: row.CreatedTime, values };
}

export const ASSISTANT_TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'list_forms',
      description: '列出当前用户可以查看的表单（应用名、表单编码 schemaCode、表单名称）。',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'describe_form',
      description: '查看一个表单中当前用户可见的字段：编码、名称、控件类型、可选项。查询或统计前先调用。',
      parameters: { type: 'object', properties: { schemaCode: { type: 'string' } }, required: ['schemaCode'], additionalProperties: false },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'find_records',
      description: `按条件查找记录（最多 ${RECORDS_MAX} 条），返回总数和记录。条件之间为“且”。日期用 ISO 格式，区间用 Between [起, 止]。`,
      parameters: {
        type: 'object',
        properties: {
          schemaCode: { type: 'string' },
          filters: { type: 'array', items: { type: 'object', properties: { field: { type: 'string', description: '字段编码' }, operator: { type: 'string', enum: FILTER_OPERATORS }, value: {} }, required: ['field', 'operator'] } },
          sort: { type: 'object', properties: { field: { type: 'string' }, direction: { type: 'string', enum: ['asc', 'desc'] } } },
          limit: { type: 'integer', minimum: 1, maximum: RECORDS_MAX },
        },
        required: ['schemaCode'],
      },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'aggregate',
      description: `统计：按条件计数；给出数字字段 field 时求合计、平均、最小、最大；给出 groupBy 时按该字段分组（最多 ${GROUPS_MAX} 组）。`,
      parameters: {
        type: 'object',
        properties: {
          schemaCode: { type: 'string' },
          filters: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, operator: { type: 'string', enum: FILTER_OPERATORS }, value: {} }, required: ['field', 'operator'] } },
          field: { type: 'string', description: '要汇总的数字字段编码' },
          groupBy: { type: 'string', description: '分组字段编码' },
        },
        required: ['schemaCode'],
      },
    },
  },
  DRAFT_TOOL,
];

async function listForms(ctx: NodeContext) {
  const edb = engineOf(ctx);
  const views = await loadAppViews(edb, await viewerOf(edb, ctx));
  return views.flatMap((view) =>
    view
      .flatten()
      .filter((n) => FORM_TYPES.includes(n.node_type) && n.state !== 'Disabled')
      .map((n) => ({ app: view.app.display_name, schemaCode: n.code, name: n.display_name })),
  );
}

async function findRecords(ctx: NodeContext, args: z.infer<typeof FindArgs>): Promise<ToolOutcome> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, args.schemaCode);
  const page = await queryRecords(ctx, { schemaCode: args.schemaCode, filter: filterOf(args.filters), pageIndex: 0, pageSize: args.limit ?? 10, ...(args.sort ? { sort: [args.sort] } : {}) });
  const records = page.list.map((row) => recordFor(form, row as Record<string, unknown>));
  return {
    result: { form: form.node.display_name, total: page.total, records },
    citations: records.map((r) => ({ schemaCode: args.schemaCode, objectId: r.objectId, title: r.title || form.node.display_name })),
  };
}

async function aggregate(ctx: NodeContext, args: z.infer<typeof AggregateArgs>): Promise<ToolOutcome> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, args.schemaCode);
  const filter = filterOf(args.filters);
  const statOf = async (extra?: z.infer<typeof LeafArg>) => {
    const narrowed = extra ? filterOf([...(args.filters ?? []), extra]) : filter;
    if (!args.field) return { count: await countRecords(ctx, { schemaCode: args.schemaCode, filter: narrowed }) };
    const stat = await columnStat(ctx, { schemaCode: args.schemaCode, filter: narrowed, field: args.field });
    return { count: stat.count, sum: stat.sum, avg: stat.avg, min: stat.min, max: stat.max };
  };
  // The records summed are cited too (the first few), so that the answer can be checked.
  const cited = await queryRecords(ctx, { schemaCode: args.schemaCode, filter, pageIndex: 0, pageSize: 10 });
  const citations = cited.list.map((row) => ({ schemaCode: args.schemaCode, objectId: String(row.ObjectId), title: String(row.Name ?? '') || form.node.display_name }));
  if (!args.groupBy) return { result: { form: form.node.display_name, ...(await statOf()) }, citations };
  const values = await distinctValues(ctx, { schemaCode: args.schemaCode, filter, field: args.groupBy, pageIndex: 0, pageSize: GROUPS_MAX });
  const groups = [];
  for (const item of values.list) groups.push({ group: item.value, ...(await statOf({ field: args.groupBy, operator: 'Equal', value: item.value })) });
  return { result: { form: form.node.display_name, groupBy: args.groupBy, groups }, citations };
}

/** Runs one tool call of the model as the person asking; a refusal becomes the tool's answer, in words. */
export async function runAssistantTool(ctx: NodeContext, name: string, argsText: string): Promise<ToolOutcome> {
  let args: unknown;
  try {
    args = argsText ? JSON.parse(argsText) : {};
  } catch {
    return { result: { error: '参数不是有效的 JSON' }, citations: [] };
  }
  try {
    switch (name) {
      case 'list_forms':
        ListFormsArgs.parse(args);
        return { result: { forms: await listForms(ctx) }, citations: [] };
      case 'describe_form': {
        const { schemaCode } = DescribeArgs.parse(args);
        const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
        return { result: { form: form.node.display_name, schemaCode, fields: visibleFields(form) }, citations: [] };
      }
      case 'find_records':
        return await findRecords(ctx, FindArgs.parse(args));
      case 'aggregate':
        return await aggregate(ctx, AggregateArgs.parse(args));
      case 'draft_record':
        return { ...(await draftRecord(ctx, DraftArgs.parse(args))), citations: [] };
      default:
        return { result: { error: `没有工具 ${name}` }, citations: [] };
    }
  } catch (error) {
    const message = error instanceof z.ZodError ? `参数无效：${error.issues[0]?.path.join('.')} ${error.issues[0]?.message}` : error instanceof AppError ? detailText(error) : '查询失败';
    return { result: { error: message }, citations: [] };
  }
}

function detailText(error: AppError): string {
  const issues = (error.detail as { issues?: { path: string; message: string }[] } | undefined)?.issues;
  return issues?.length ? `${error.message}：${issues.map((i) => `${i.path} ${i.message}`).join('；')}` : error.message;
}
