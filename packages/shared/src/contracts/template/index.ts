import { z } from 'zod';
import { BACKGROUND_TASK_STATES } from '../../constants/tasks.ts';
import { EngineCode } from '../auth/fields.ts';
import { NodeCode } from '../function-node/index.ts';
import { FileId } from '../files/index.ts';

// App templates, the template market and sharing apps between engines (calls.md §"Apps and nodes": /v1/template/*,
// /v1/share/app/publish; issue 46). The spec names the calls, not their fields: the shapes are ours
// (docs/decisions/0131-templates-and-sharing.md).

/** Who sees a template: its publisher engine (and the engines it is shared with), or every engine of the platform. */
export const TEMPLATE_SCOPES = ['Engine', 'Platform'] as const;
export const TemplateScope = z.enum(TEMPLATE_SCOPES, { error: '模板范围须为 Engine 或 Platform' });
export type TemplateScope = z.infer<typeof TemplateScope>;

/** The market's categories (built-in manifests use them too). */
export const TEMPLATE_CATEGORIES = ['人事行政', '财务', '销售与客户', '进销存', '项目管理', '采购', '其他'] as const;
export const TemplateCategory = z.enum(TEMPLATE_CATEGORIES, { error: '请选择模板分类' });

/** Which templates a list shows: every one visible, or one source (the market's tabs). */
export const TEMPLATE_SOURCES = ['all', 'builtIn', 'platform', 'engine', 'shared'] as const;

export const TemplateId = z.string().trim().min(1, '缺少模板 id').max(64).regex(/^[A-Za-z0-9_-]+$/, '无效的模板 id');
const TemplateName = z.string().trim().min(2, '模板名称至少2个字符').max(32, '模板名称最多32个字符').regex(/^[^\u0000-\u001f]*$/, '名称不能含控制字符');
const Summary = z.string().trim().max(200, '简介最多200个字符').regex(/^[^\u0000]*$/, '简介不能含控制字符');
const Description = z.string().trim().max(2000, '介绍最多2000个字符').regex(/^[^\u0000]*$/, '介绍不能含控制字符');
/** A code→code map the installer applies (forms outside the package, roles by name): at most 200 entries. */
const Mapping = z.record(z.string().min(1).max(64), z.string().min(1).max(64)).refine((m) => Object.keys(m).length <= 200, '映射最多200项');

/** POST /v1/template/publish: an app of this engine as a template (again: a new version of the same template). */
export const PublishTemplateBody = z.strictObject({
  appCode: NodeCode,
  scope: TemplateScope,
  name: TemplateName,
  category: TemplateCategory,
  summary: Summary.default(''),
  description: Description.default(''),
  /** Images uploaded by the caller (scene image), shown in the template's detail; at most 6. */
  pictures: z.array(FileId).max(6, '截图最多6张').default([]),
  withSampleData: z.boolean().default(false),
});
export type PublishTemplateBody = z.input<typeof PublishTemplateBody>;

/** POST /v1/template/checkPublish: what would block publishing (no name: the name is not checked). */
export const CheckPublishBody = z.strictObject({ appCode: NodeCode, scope: TemplateScope.default('Engine'), name: TemplateName.optional() });
export type CheckPublishBody = z.input<typeof CheckPublishBody>;
export const PublishProblem = z.object({ path: z.string(), message: z.string() });
export const CheckPublishResult = z.object({ allowed: z.boolean(), problems: z.array(PublishProblem) });
export type CheckPublishResult = z.infer<typeof CheckPublishResult>;

/** One form the package holds and its sample records. */
export const TemplateFormDto = z.object({ name: z.string(), sampleCount: z.number().int() });

/** A template as the market lists it. */
export const TemplateDto = z.object({
  id: z.string(),
  code: z.string(),
  scope: TemplateScope,
  builtIn: z.boolean(),
  name: z.string(),
  category: z.string(),
  summary: z.string(),
  icon: z.string(),
  iconColor: z.string(),
  formCount: z.number().int(),
  sampleCount: z.number().int(),
  version: z.number().int(),
  installCount: z.number().int(),
  publishedTime: z.string(),
  /** The publishing engine's name; null for built-in templates. */
  publisherName: z.string().nullable(),
  /** Published by this engine (its administrators may publish again or remove it). */
  isMine: z.boolean(),
  /** Another engine shared it with this one (共享给我的). */
  isSharedToMe: z.boolean(),
  pictureCount: z.number().int(),
});
export type TemplateDto = z.infer<typeof TemplateDto>;

/** GET /v1/template/list */
export const TemplateListQuery = z.strictObject({
  category: TemplateCategory.optional(),
  keyword: z.string().trim().max(50, '关键字最多50个字符').regex(/^[^\u0000]*$/, '关键字不能含控制字符').optional(),
  source: z.enum(TEMPLATE_SOURCES).default('all'),
  pageIndex: z.coerce.number().int().min(0).max(100000).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TemplateListQuery = z.input<typeof TemplateListQuery>;
export const TemplateListResult = z.object({
  list: z.array(TemplateDto),
  total: z.number().int(),
  hasMore: z.boolean(),
  /** Each category with how many templates this engine sees in it. */
  categories: z.array(z.object({ category: z.string(), count: z.number().int() })),
});
export type TemplateListResult = z.infer<typeof TemplateListResult>;

/** GET /v1/template/info?templateId */
export const TemplateIdQuery = z.strictObject({ templateId: TemplateId });
export const TemplateInfo = TemplateDto.extend({
  description: z.string(),
  /** Addresses of its pictures (GET /v1/template/picture). */
  pictures: z.array(z.string()),
  forms: z.array(TemplateFormDto),
  /** The engines it is shared with (only its publisher sees them). */
  sharedWith: z.array(z.object({ engineCode: z.string(), engineName: z.string() })),
});
export type TemplateInfo = z.infer<typeof TemplateInfo>;

/** GET /v1/template/picture?templateId&index */
export const TemplatePictureQuery = z.strictObject({ templateId: TemplateId, index: z.coerce.number().int().min(0).max(5) });

/** POST /v1/template/install: a background job; poll /v1/template/install/progress. */
export const InstallTemplateBody = z.strictObject({
  templateId: TemplateId,
  withSampleData: z.boolean().default(true),
  /** Forms the package refers to outside itself → forms of this engine. */
  formMapping: Mapping.optional(),
  /** Roles of the package → roles of this engine (otherwise matched by name). */
  roleMapping: Mapping.optional(),
});
export type InstallTemplateBody = z.input<typeof InstallTemplateBody>;
export const InstallStartedResult = z.object({ actionId: z.string() });

/** GET /v1/template/install/progress?actionId */
export const InstallProgressQuery = z.strictObject({ actionId: z.string().trim().uuid('无效的任务 id') });
export const InstallProgressResult = z.object({
  actionId: z.string(),
  isComplete: z.boolean(),
  state: z.enum(BACKGROUND_TASK_STATES),
  progress: z.number(),
  message: z.string().nullable(),
  /** The new app, once installed. */
  appCode: z.string().nullable(),
});
export type InstallProgressResult = z.infer<typeof InstallProgressResult>;

/** POST /v1/template/checksampledata and /clearsampledata */
export const SampleDataBody = z.strictObject({ appCode: NodeCode });
export const SampleDataResult = z.object({
  total: z.number().int(),
  forms: z.array(z.object({ schemaCode: z.string(), displayName: z.string(), count: z.number().int() })),
});
export type SampleDataResult = z.infer<typeof SampleDataResult>;
export const ClearSampleDataResult = z.object({ removed: z.number().int() });

/** POST /v1/template/remove: the publisher takes its template out of the market (installed apps stay). */
export const RemoveTemplateBody = z.strictObject({ templateId: TemplateId });

/**
 * POST /v1/share/app/publish: shares an app with other engines of the platform. The app is published as this engine's
 * template (again: a new version), and the engines named — and, with `toAssociated`, the engines associated with this
 * one — see it under 共享给我的.
 */
export const ShareAppBody = z.strictObject({
  appCode: NodeCode,
  engineCodes: z.array(EngineCode).max(50, '一次最多共享给50个组织').default([]),
  toAssociated: z.boolean().default(false),
  name: TemplateName.optional(),
  category: TemplateCategory.default('其他'),
  summary: Summary.default(''),
  withSampleData: z.boolean().default(false),
});
export type ShareAppBody = z.input<typeof ShareAppBody>;
export const ShareAppResult = z.object({
  templateId: z.string(),
  version: z.number().int(),
  sharedWith: z.array(z.object({ engineCode: z.string(), engineName: z.string() })),
});
export type ShareAppResult = z.infer<typeof ShareAppResult>;
