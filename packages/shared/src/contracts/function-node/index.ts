import { z } from 'zod';
import { FUNCTION_NODE_STATES, FUNCTION_NODE_TYPES, FunctionNodeType } from '../../constants/function-node.ts';
import { FUNCTION_NODE_AUTHORIZATIONS } from '../../constants/org.ts';
import { BACKGROUND_TASK_STATES } from '../../constants/tasks.ts';
import { codeSchema, nameSchema } from '../../validation/zod.ts';
import { UnitId } from '../org/fields.ts';

// Apps and function nodes (domain.md §3, calls.md §3–4, §7 "Apps and nodes"). Shapes the spec does not give are
// chosen in docs/decisions/0004-apps-and-jobs.md.

/** A node code: the spec's code pattern, unique in the engine (case-insensitively). */
export const NodeCode = codeSchema.max(64, '编码最多64个字符');
/** App, group and module names: 2–32 characters (domain.md §5). */
export const NodeName = nameSchema();
export const NodeTypeCode = z.union(FUNCTION_NODE_TYPES.map((t) => z.literal(t)) as unknown as [z.ZodLiteral<FunctionNodeType>, ...z.ZodLiteral<FunctionNodeType>[]]);
export const NodeState = z.enum(FUNCTION_NODE_STATES);
export const NodePermission = z.enum(FUNCTION_NODE_AUTHORIZATIONS);
const Icon = z.string().trim().max(64, '图标最多64个字符');
const IconColor = z.string().trim().regex(/^#?[0-9A-Za-z]{0,16}$/, '颜色格式不正确');
const Summary = z.string().trim().max(200, '说明最多200个字符');
const Url = z.string().trim().url('请输入正确的链接地址').max(2000);
const codeList = (max: number) => z.array(NodeCode).min(1, '至少一项').max(max, `一次最多 ${max} 项`);

/** A function node as every call answers it (calls.md §3 fields plus state, url, sortKey, the caller's permission). */
export const FunctionNodeDto = z.object({
  code: z.string(),
  objectId: z.string(),
  parentCode: z.string().nullable(),
  appCode: z.string(),
  displayName: z.string(),
  icon: z.string(),
  iconColor: z.string(),
  nodeType: z.number().int(),
  summary: z.string(),
  appState: z.string(),
  source: z.string(),
  state: NodeState,
  url: z.string().nullable(),
  sortKey: z.number().int(),
  /** The caller's effective permission on the node. */
  permission: NodePermission,
  /** Only where asked for (children with checkHasChild). */
  hasChild: z.boolean().optional(),
});
export type FunctionNodeDto = z.infer<typeof FunctionNodeDto> & { children?: FunctionNodeDto[] };

/** A node with its children (groups hold their modules). */
export const FunctionNodeTreeDto: z.ZodType<FunctionNodeDto> = FunctionNodeDto.extend({ children: z.array(z.lazy(() => FunctionNodeTreeDto)).optional() });

/** An app of the app list: the package node, its children tree, its default schema and whether the caller administers it. */
export const AppDto = FunctionNodeDto.extend({
  children: z.array(FunctionNodeTreeDto),
  defaultSchemaCode: z.string().nullable(),
  isAdmin: z.boolean(),
});
export type AppDto = z.infer<typeof AppDto>;

/** GET /v1/functionnode/app/list: the apps the caller may open, in the engine's order. */
export const AppListQuery = z.strictObject({ withChildren: z.enum(['true', 'false']).default('true') });
export const AppListResult = z.object({ list: z.array(AppDto) });
/** GET /v1/functionnode/app/subadminapplist: the apps the caller administers (Administrators: all). */
export const SubAdminAppListResult = z.object({ list: z.array(FunctionNodeDto) });
/** GET /v1/functionnode/app/hascode/list: the codes of the apps the caller administers, loaded apart from the list (calls.md §6). */
export const AdminAppCodesResult = z.object({ codes: z.array(z.string()), isAdministrator: z.boolean() });
/** GET /v1/functionnode/app/hasdashboard */
export const HasDashboardResult = z.object({ hasDashboard: z.boolean() });
/** GET /v1/functionnode/app/status: whether the engine has apps the caller may open; with appCode, that app's state. */
export const AppStatusQuery = z.strictObject({ appCode: NodeCode.optional() });
export const AppStatusResult = z.object({
  hasApp: z.boolean(),
  appCount: z.number().int(),
  app: z.object({ code: z.string(), appState: z.string(), state: NodeState, isAdmin: z.boolean() }).optional(),
});
export type AppStatusResult = z.infer<typeof AppStatusResult>;
/** GET /v1/functionNode/app/feature/list?appCode: every node of the app the caller may open, parents before children. */
export const FeatureListQuery = z.strictObject({ appCode: NodeCode });
export const FeatureListResult = z.object({ list: z.array(FunctionNodeDto), defaultSchemaCode: z.string().nullable() });

/**
 * POST /v1/functionnode: creates an app (nodeType 190: no appCode, no parentCode) or a node inside an app
 * (parentCode: the app or one of its groups; default the app). A custom link needs its url.
 */
export const CreateNodeBody = z
  .strictObject({
    code: NodeCode.optional(),
    appCode: NodeCode.optional(),
    parentCode: NodeCode.optional(),
    displayName: NodeName,
    icon: Icon.optional(),
    iconColor: IconColor.optional(),
    nodeType: NodeTypeCode,
    summary: Summary.optional(),
    url: Url.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.nodeType === FunctionNodeType.AppPackage) {
      if (body.appCode !== undefined && body.appCode !== body.code) ctx.addIssue({ code: 'custom', path: ['appCode'], message: '新建应用时不能指定所属应用' });
      if (body.parentCode !== undefined) ctx.addIssue({ code: 'custom', path: ['parentCode'], message: '应用没有上级节点' });
    } else if (body.appCode === undefined) {
      ctx.addIssue({ code: 'custom', path: ['appCode'], message: '请选择所属应用' });
    }
    if (body.nodeType === FunctionNodeType.CustomLinkModule && !body.url) ctx.addIssue({ code: 'custom', path: ['url'], message: '自定义链接须填写链接地址' });
  });
export type CreateNodeBody = z.infer<typeof CreateNodeBody>;
export const NodeResult = FunctionNodeDto;

/** POST /v1/functionnode/update */
export const UpdateNodeBody = z
  .strictObject({ code: NodeCode, displayName: NodeName.optional(), icon: Icon.optional(), iconColor: IconColor.optional(), summary: Summary.optional(), state: NodeState.optional(), url: Url.optional() })
  .refine((b) => ['displayName', 'icon', 'iconColor', 'summary', 'state', 'url'].some((k) => (b as Record<string, unknown>)[k] !== undefined), { error: '没有要修改的内容' });
export type UpdateNodeBody = z.infer<typeof UpdateNodeBody>;

export const CodeBody = z.strictObject({ code: NodeCode });
/** POST /v1/functionnode/remove: the node and everything below it (an app: all it contains). */
export const RemoveNodeBody = CodeBody;
export const RemovedResult = z.object({ removed: z.number().int() });

/** PUT /v1/functionnode/sort: place the node right after preCode (a sibling), or first when preCode is empty. */
export const SortNodeBody = z.strictObject({ code: NodeCode, preCode: z.union([NodeCode, z.literal(''), z.null()]).optional() });
export type SortNodeBody = z.infer<typeof SortNodeBody>;

/** POST /v1/functionnode/move and /v1/functionNode/checkmove: a module or group to another parent (an app, or a group). */
export const MoveNodeBody = z.strictObject({ code: NodeCode, parentCode: NodeCode, preCode: z.union([NodeCode, z.literal(''), z.null()]).optional() });
export type MoveNodeBody = z.infer<typeof MoveNodeBody>;
export const CheckResult = z.object({ allowed: z.boolean(), errorCode: z.number().int().optional(), errorMessage: z.string().optional() });
export type CheckResult = z.infer<typeof CheckResult>;

/** POST /v1/functionnode/copy and /v1/functionNode/checkcopy: copies an app (a background job). */
export const CopyNodeBody = CodeBody;
export const CopyStartedResult = z.object({ actionId: z.string() });
/** GET /v1/functionnode/copy/progress?actionId */
export const CopyProgressQuery = z.strictObject({ actionId: z.string().trim().uuid('无效的任务 id') });
export const CopyProgressResult = z.object({
  actionId: z.string(),
  isComplete: z.boolean(),
  state: z.enum(BACKGROUND_TASK_STATES),
  progress: z.number().int(),
  message: z.string().nullable(),
  attempts: z.number().int(),
  /** The new app, once the copy is complete. */
  node: AppDto.nullable(),
});
export type CopyProgressResult = z.infer<typeof CopyProgressResult>;
/** POST /v1/functionnode/copy/retry: a copy that ended Timeout (or Failed) starts again, clean. */
export const CopyRetryBody = z.strictObject({ actionId: z.string().trim().uuid('无效的任务 id') });

/** POST /v1/functionnode/children: the children of an app or group, optionally of some types, optionally with hasChild. */
export const ChildrenBody = z.strictObject({
  parentCode: NodeCode,
  nodeTypes: z.array(NodeTypeCode).min(1).max(10).optional(),
  checkHasChild: z.boolean().default(false),
});
export const NodeListResult = z.object({ list: z.array(FunctionNodeDto) });

/** POST /v1/functionnode/list/bykeyword: nodes whose name or code contains the keyword. */
export const NodeKeywordBody = z.strictObject({
  keyword: z.string().trim().min(1, '请输入关键字').max(50, '关键字最多50个字符'),
  nodeTypes: z.array(NodeTypeCode).min(1).max(10).optional(),
  appCode: NodeCode.optional(),
});
/** POST /v1/functionnode/list/bycodes; codes the caller may not open are left out. */
export const NodeCodesBody = z.strictObject({ codes: codeList(500) });
/** POST /v1/functionnode/auth/bycodes: the caller's permission on each code (none when unknown or not visible). */
export const NodeAuthResult = z.object({ list: z.array(z.object({ code: z.string(), permission: NodePermission })) });

/** POST /v1/functionnode/auth/set (Administrators): a user's or role's permission on a node; none removes the grant. */
export const SetNodePermissionBody = z.strictObject({ code: NodeCode, unitId: UnitId, permission: NodePermission });
/** POST /v1/functionnode/auth/list (Administrators): the grants on a node. */
export const NodePermissionListResult = z.object({
  list: z.array(z.object({ unitId: z.string(), unitType: z.string(), name: z.string(), permission: NodePermission })),
});
export type NodePermissionListResult = z.infer<typeof NodePermissionListResult>;
