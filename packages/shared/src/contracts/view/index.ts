import { z } from 'zod';
import { ScriptActionName } from '../custom-code/actions.ts';
import { Filter } from '../../query/filter.ts';
import { SchemaCode } from '../form-design/index.ts';
import { BizObjectId, BizQueryResult } from '../business-data/index.ts';
import { ColumnStatResult } from '../query/index.ts';
import { RowHeight, ViewMode, ViewScope } from '../../constants/views.ts';
import { STYLE_PALETTE_SIZE } from '../../constants/formats.ts';
import { VIEW_ACTIONS_MAX } from '../../constants/limits.ts';
import { VIEW_MODE_NUMBERS, viewModeOf } from '../../view-modes/index.ts';

// List views (issue 8; docs/decisions/0017-list-views.md): view settings (calls.md §7 "Schema, views, workbench":
// /v1/view/setting, /view/designer/load, /page/header, /designer/column/default, /view/designer/save), personal
// views (/v1/preference/view) and the view's data calls (/v1/bizdata/view/query, /view/delete, /property/distinct,
// /shortlink, /batchupdate). The spec shows no payloads; the decision record chooses them.

/** Views per form; columns, offered filters, quick-search fields, statistics and style rules per view. */
export const VIEW_LIMITS = { views: 20, columns: 200, filters: 50, quickSearch: 10, stats: 20, styleRules: 50, personalViews: 50 } as const;
/** Records one batch update or delete may touch. */
export const BATCH_UPDATE_MAX = 10_000;
export const VIEW_DELETE_MAX = 500;

const FieldRef = z.string().min(1).max(127).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, '字段编码无效');
export const ViewCode = z.string().min(1).max(40).regex(/^[A-Za-z][A-Za-z0-9_]*$/, '视图编码须以字母开头，仅含字母、数字和下划线');
const Title = z.string().trim().min(1).max(50);

export const VIEW_COLUMN_FIXED = ['left', 'right'] as const;
export const ViewColumn = z.strictObject({
  field: FieldRef,
  width: z.number().int().min(40).max(800).optional(),
  fixed: z.enum(VIEW_COLUMN_FIXED).nullable().optional(),
});
export type ViewColumn = z.infer<typeof ViewColumn>;

export const ViewSort = z.strictObject({ field: FieldRef, direction: z.enum(['asc', 'desc']).default('asc') });

export const VIEW_STAT_TYPES = ['count', 'sum', 'avg', 'min', 'max'] as const;
export const ViewStat = z.strictObject({ field: FieldRef, type: z.enum(VIEW_STAT_TYPES) });

/** Toolbar buttons: the runtime's own actions, a link opened in a new tab, or the form's list script (docs/decisions/0118). */
export const VIEW_ACTION_TYPES = ['Create', 'BatchEdit', 'Delete', 'Refresh', 'Link', 'Script'] as const;
export const ViewAction = z.strictObject({
  code: ViewCode,
  title: Title,
  type: z.enum(VIEW_ACTION_TYPES),
  url: z.string().max(2000).regex(/^(https?:\/\/|\/)/, '链接须以 http(s):// 或 / 开头').optional(),
  /** Script: the action name the form's server script's onListAction reads, with the selected records. */
  actionName: ScriptActionName.optional(),
});

/** A style rule: records matching `filter` get palette colour `color` on the row or on one column's cells. */
export const StyleRule = z.strictObject({
  filter: Filter,
  color: z.number().int().min(0).max(STYLE_PALETTE_SIZE - 1),
  /** A column code, or absent for the whole row. */
  field: FieldRef.optional(),
});
export type StyleRule = z.infer<typeof StyleRule>;

const rowHeights = Object.values(RowHeight) as [number, ...number[]];
const scopes = Object.values(ViewScope) as [number, ...number[]];

export const ViewSetting = z.strictObject({
  code: ViewCode,
  title: Title,
  /** One of the spec's view modes (domain.md §3; the registry of docs/decisions/0047). */
  mode: z.number().int().refine((v) => (VIEW_MODE_NUMBERS as number[]).includes(v), '视图类型无效').default(ViewMode.List),
  /** The mode's own settings (group field, date fields, cover…), checked against the mode's schema. */
  settings: z.record(z.string(), z.unknown()).optional(),
  /** Hierarchy view: the association field (to this same form) naming each record's parent. */
  parentField: FieldRef.optional(),
  /** 1 own, 2 own department, 3 all (domain.md §6). */
  scope: z.number().int().refine((v) => scopes.includes(v), '视图范围无效').default(ViewScope.ViewAll),
  rowHeight: z.number().int().refine((v) => rowHeights.includes(v), '行高须为 36、46、68 或 90').default(RowHeight.Common),
  columns: z.array(ViewColumn).min(1).max(VIEW_LIMITS.columns),
  sort: z.array(ViewSort).max(3).default([]),
  /** A fixed condition of the view (AND-ed with what users choose). */
  filter: Filter.optional(),
  /** Fields users may filter on in the filter panel. */
  filters: z.array(FieldRef).max(VIEW_LIMITS.filters).default([]),
  /** Text fields the quick search looks in. */
  quickSearch: z.array(FieldRef).max(VIEW_LIMITS.quickSearch).default([]),
  stats: z.array(ViewStat).max(VIEW_LIMITS.stats).default([]),
  actions: z.array(ViewAction).max(VIEW_ACTIONS_MAX).default([]),
  styleRules: z.array(StyleRule).max(VIEW_LIMITS.styleRules).default([]),
  pageSize: z.union([z.literal(10), z.literal(20), z.literal(50), z.literal(100), z.literal(200), z.literal(500)]).default(50),
}).superRefine((view, ctx) => {
  const definition = viewModeOf(view.mode);
  if (!definition) return;
  const parsed = definition.settings.safeParse(view.settings ?? {});
  if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: ['settings', ...issue.path], message: issue.message });
});
export type ViewSetting = z.infer<typeof ViewSetting>;
export type ViewSettingInput = z.input<typeof ViewSetting>;

/** A field a view may show, with what the designer and the runtime need to know of it. */
export const ViewField = z.object({
  code: z.string(),
  title: z.string(),
  /** The registry's control type (system fields: 'system'). */
  controlType: z.string(),
  dataType: z.string(),
  sortable: z.boolean(),
  /** Operators valid for the field (packages/shared/src/query/operators.ts). */
  operators: z.array(z.string()),
  /** Drop-down / radio / checkbox items. */
  items: z.array(z.string()).optional(),
  /** Association fields: the form they point to (a hierarchy view's parent points to its own form). */
  targetSchemaCode: z.string().optional(),
});
export type ViewField = z.infer<typeof ViewField>;

export const SchemaCodeQuery = z.strictObject({ schemaCode: SchemaCode });
export const ViewQueryString = z.strictObject({ schemaCode: SchemaCode, viewCode: ViewCode.optional() });

export const ViewSettingResult = z.object({
  schemaCode: z.string(),
  /** Designed views in order; a form never designed has one default view. */
  views: z.array(ViewSetting),
  /** The caller administers the form's app (may design views). */
  canDesign: z.boolean(),
  /** View modes whose feature switch is off in the engine: not offered, and their views open as lists. */
  modesOff: z.array(z.number().int()).default([]),
});
export const DesignerLoadResult = z.object({ schemaCode: z.string(), views: z.array(ViewSetting), fields: z.array(ViewField), modesOff: z.array(z.number().int()).default([]) });
export const PageHeaderResult = z.object({
  view: ViewSetting,
  columns: z.array(ViewField.extend({ width: z.number().int().nullable(), fixed: z.string().nullable() })),
  /** Fields offered in the filter panel. */
  filters: z.array(ViewField),
  /** Fields the view's mode settings name (group, dates, cover, card fields) that the caller may see. */
  modeFields: z.array(ViewField).default([]),
});
export const DefaultColumnsResult = z.object({ columns: z.array(ViewColumn), fields: z.array(ViewField) });
export const DesignerSaveBody = z.strictObject({ schemaCode: SchemaCode, views: z.array(ViewSetting).min(1).max(VIEW_LIMITS.views) });

// ---- personal views (/v1/preference/view; fields as the spec names them) ----
/** 0: a saved view (filter, sort, columns); 1: column preferences of a designed view. */
export const PERSONAL_SETTING_TYPES = [0, 1] as const;
export const PersonalViewConfig = z.strictObject({
  filter: Filter.optional(),
  keyword: z.string().max(100).optional(),
  sort: z.array(ViewSort).max(3).optional(),
  columns: z.array(ViewColumn).max(VIEW_LIMITS.columns).optional(),
  rowHeight: z.number().int().refine((v) => rowHeights.includes(v), '行高须为 36、46、68 或 90').optional(),
  pageSize: z.number().int().optional(),
});
export type PersonalViewConfig = z.infer<typeof PersonalViewConfig>;
export const PersonalView = z.object({
  Id: z.string(),
  Title: z.string(),
  /** Narrows the designed view: 1 own, 2 own department, 3 as the view. */
  ScopeType: z.number().int(),
  SettingType: z.number().int(),
  Config: PersonalViewConfig,
  Visible: z.boolean(),
  Fields: z.array(z.string()),
  /** The designed view it starts from. */
  ViewPageId: z.string(),
  schemaCode: z.string(),
});
export type PersonalView = z.infer<typeof PersonalView>;
export const PersonalViewList = z.object({ list: z.array(PersonalView) });
const personalFields = {
  Title,
  ScopeType: z.number().int().refine((v) => scopes.includes(v), '范围无效').default(ViewScope.ViewAll),
  SettingType: z.union([z.literal(0), z.literal(1)]).default(0),
  Config: PersonalViewConfig.default({}),
  Visible: z.boolean().default(true),
  Fields: z.array(FieldRef).max(VIEW_LIMITS.columns).default([]),
};
export const AddPersonalViewBody = z.strictObject({ schemaCode: SchemaCode, ViewPageId: ViewCode, ...personalFields });
export const UpdatePersonalViewBody = z.strictObject({
  Id: z.uuid(),
  Title: personalFields.Title.optional(),
  ScopeType: personalFields.ScopeType.optional(),
  Config: PersonalViewConfig.optional(),
  Visible: z.boolean().optional(),
  Fields: personalFields.Fields.optional(),
});
export const DeletePersonalViewBody = z.strictObject({ Id: z.uuid() });
export const SortPersonalViewBody = z.strictObject({ schemaCode: SchemaCode, ids: z.array(z.uuid()).max(VIEW_LIMITS.personalViews) });

// ---- the view's data ----
const pageSize = z.union([z.literal(1), z.literal(5), z.literal(10), z.literal(20), z.literal(50), z.literal(100), z.literal(200), z.literal(500), z.literal(-1)]);
/** What narrows the view's records: the view (scope, fixed filter), a personal view, the user's filter and search. */
const viewNarrowing = {
  schemaCode: SchemaCode,
  viewCode: ViewCode.optional(),
  personalViewId: z.uuid().optional(),
  filter: Filter.optional(),
  /** Quick search: Contains on the view's quick-search fields (any of them). */
  keyword: z.string().trim().max(100).optional(),
};
export const ViewQueryBody = z.strictObject({
  ...viewNarrowing,
  sort: z.array(ViewSort).max(3).optional(),
  pageIndex: z.number().int().min(0).default(0),
  pageSize: pageSize.default(50),
  /** Also compute the view's column statistics over every matching record. */
  withStats: z.boolean().default(false),
});
export const ViewStatValue = ColumnStatResult;
export const ViewQueryResult = BizQueryResult.extend({ stats: z.record(z.string(), ColumnStatResult).optional() });
export type ViewQueryResult = z.infer<typeof ViewQueryResult>;

export const ViewDeleteBody = z.strictObject({ schemaCode: SchemaCode, objectIds: z.array(BizObjectId).min(1).max(VIEW_DELETE_MAX) });
export const RecordFailure = z.object({ objectId: z.string(), errorCode: z.number().int(), message: z.string() });
export const ViewDeleteResult = z.object({ removed: z.array(z.string()), failed: z.array(RecordFailure) });

export const PropertyDistinctBody = z.strictObject({
  ...viewNarrowing,
  field: FieldRef,
  pageIndex: z.number().int().min(0).default(0),
  pageSize: pageSize.default(50),
});

/**
 * POST /v1/bizdata/shortlink: a short path (/s/<code>) for a record of a form, or for a page of this site (a share or
 * fill-in page); `target` is the page it opens.
 */
export const ShortLinkBody = z
  .strictObject({ schemaCode: SchemaCode.optional(), objectId: BizObjectId.optional(), path: z.string().trim().min(2).max(2000).optional() })
  .refine((b) => (b.path !== undefined) !== (b.schemaCode !== undefined && b.objectId !== undefined), { message: '须指定数据（schemaCode 与 objectId）或本站页面（path）之一', path: ['path'] });
export type ShortLinkBody = z.infer<typeof ShortLinkBody>;
export const ShortLinkResult = z.object({ url: z.string(), target: z.string() });

export const BatchUpdateBody = z.strictObject({
  ...viewNarrowing,
  /** The records to change; absent = every record the view (with filter and keyword) shows. */
  objectIds: z.array(BizObjectId).min(1).max(BATCH_UPDATE_MAX).optional(),
  field: FieldRef,
  value: z.unknown(),
});
export const BatchTaskId = z.strictObject({ taskId: z.uuid() });
export const BATCH_TASK_STATES = ['Waiting', 'Running', 'Finished', 'Failed', 'Timeout'] as const;
export const BatchTask = z.object({
  taskId: z.string(),
  schemaCode: z.string(),
  field: z.string(),
  state: z.string(),
  progress: z.number().int(),
  message: z.string().nullable(),
  createdTime: z.string(),
  /** Once Finished: how many records were changed and which failed (at most 100 listed). */
  result: z.object({ total: z.number().int(), succeeded: z.number().int(), failedCount: z.number().int(), failed: z.array(RecordFailure) }).nullable(),
});
export type BatchTask = z.infer<typeof BatchTask>;
export const BatchTaskList = z.object({ list: z.array(BatchTask) });

export * from './hierarchy.ts';
export * from './modes.ts';
export * from './gantt.ts';
