import { z } from 'zod';
import { FunctionNodeDto, NodeCode } from '../function-node/index.ts';

// Workbench (calls.md §7 "Schema, views, workbench"). The spec shows no fields; docs/decisions/0004 chooses these.

/** What a workbench can show. */
export const WORKBENCH_COMPONENT_TYPES = ['appList', 'recentActivity', 'todo', 'messages', 'shortcuts', 'dashboard', 'customLink'] as const;

export const WorkbenchComponent = z.strictObject({
  /** Unique within one configuration. */
  id: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, '无效的组件 id'),
  type: z.enum(WORKBENCH_COMPONENT_TYPES),
  title: z.string().trim().max(32, '标题最多32个字符').optional(),
  visible: z.boolean().default(true),
  /** Columns of a 4-column grid. */
  width: z.number().int().min(1).max(4).default(4),
  /** A node the component points to (dashboard, custom link). */
  nodeCode: NodeCode.optional(),
});
export const WorkbenchConfig = z.strictObject({
  components: z
    .array(WorkbenchComponent)
    .max(30, '最多30个组件')
    .refine((list) => new Set(list.map((c) => c.id)).size === list.length, { error: '组件 id 不能重复' }),
});
export type WorkbenchConfig = z.infer<typeof WorkbenchConfig>;

/** GET /v1/workbench/config: the caller's saved configuration, or the default (isDefault). */
export const WorkbenchConfigResult = z.object({ config: WorkbenchConfig, isDefault: z.boolean() });
/** POST /v1/workbench/saveconfig */
export const SaveWorkbenchConfigBody = WorkbenchConfig;

/** POST /v1/workbench/visit: the client reports that the caller opened an app or node. */
export const WorkbenchVisitBody = z.strictObject({ code: NodeCode });
/** GET /v1/workbench/recentactivity: what the caller opened lately, newest first (only what they may still open). */
export const RecentActivityQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(50).default(10) });
export const RecentActivityResult = z.object({
  list: z.array(z.object({ node: FunctionNodeDto, lastVisitTime: z.string(), visitCount: z.number().int() })),
});
