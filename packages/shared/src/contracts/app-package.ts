import { z } from 'zod';
import { BACKGROUND_TASK_STATES } from '../constants/tasks.ts';
import { FormDefinition } from './form-design/definition.ts';
import { ViewSetting } from './view/index.ts';
import { BoardDefinition } from '../report/model.ts';
import { WorkflowTemplate } from '../workflow/model.ts';
import { BusinessRule } from '../business-rules/model.ts';
import { PrintLayout } from '../print/template.ts';
import { CustomCodeLanguage, CustomCodePart } from './custom-code/index.ts';
import { FIELD_RIGHTS, FORM_ACTIONS } from '../constants/permissions.ts';
import { DATA_SCOPES } from '../constants/org.ts';

// An app package (docs/decisions/0130): everything an app is, as one versioned JSON document, carried in a gzip tar
// with a manifest and the files of its sample data. The definitions inside are the designers' own models, checked by
// their own schemas here and again by the designers' services when installed.

/** The package format this code writes and reads; a newer one is refused. */
export const APP_PACKAGE_FORMAT_VERSION = 1;

const Code = z.string().min(1).max(64).regex(/^[A-Za-z][A-Za-z0-9_]*$/, '编码须以字母开头，只含字母、数字和下划线');
const Name = z.string().trim().min(1).max(50);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const PackageNode = z.strictObject({
  code: Code,
  parentCode: Code.nullable(),
  name: Name,
  icon: z.string().max(64).default(''),
  iconColor: z.string().max(16).default(''),
  nodeType: z.number().int(),
  summary: z.string().max(200).default(''),
  sortKey: z.number().int().min(0),
  url: z.string().max(2000).nullable().default(null),
});

/** A permission group: its members by name (users are not carried: they belong to the organisation). */
export const PackagePermissionGroup = z.strictObject({
  name: z.string().trim().min(1).max(50),
  roles: z.array(z.string().max(100)).max(500).default([]),
  departments: z.array(z.string().max(100)).max(500).default([]),
  actions: z.array(z.enum(FORM_ACTIONS)).max(FORM_ACTIONS.length),
  viewScope: z.enum(DATA_SCOPES),
  editScope: z.enum(DATA_SCOPES),
  fieldRights: z.record(z.string().min(1).max(130), z.enum(FIELD_RIGHTS)).default({}),
});

export const PackageScript = z.strictObject({ part: CustomCodePart, language: CustomCodeLanguage, source: z.string().max(200_000) });

export const PackageAutomation = z.strictObject({ name: Name, enabled: z.boolean(), runAs: z.enum(['owner', 'system']), definition: z.record(z.string(), z.unknown()) });

export const PackageSampleRecord = z.strictObject({
  values: z.record(z.string(), z.unknown()),
  children: z.record(z.string(), z.array(z.record(z.string(), z.unknown())).max(1000)).default({}),
});

export const PackageForm = z.strictObject({
  code: Code,
  definition: FormDefinition,
  rules: z.array(BusinessRule).max(200).default([]),
  customIndexes: z.array(z.array(z.string().max(64)).min(1).max(5)).max(5).default([]),
  views: z.array(ViewSetting).max(50).default([]),
  workflow: WorkflowTemplate.nullable().default(null),
  automations: z.array(PackageAutomation).max(100).default([]),
  printTemplates: z.array(z.strictObject({ name: Name, isDefault: z.boolean(), layout: PrintLayout })).max(100).default([]),
  excelTemplates: z.array(z.strictObject({ name: Name, sha256: Sha256 })).max(20).default([]),
  permissionGroups: z.array(PackagePermissionGroup).max(100).default([]),
  scripts: z.array(PackageScript).max(2).default([]),
  samples: z.array(PackageSampleRecord).max(100_000).default([]),
});

export const PackageFile = z.strictObject({ sha256: Sha256, name: z.string().max(255), size: z.number().int().min(0), contentType: z.string().max(255) });

export const AppPackage = z.strictObject({
  formatVersion: z.number().int().min(1),
  /** The newest platform and engine migrations the package's definitions were made under. */
  schemaVersion: z.strictObject({ platform: z.string().max(100), engine: z.string().max(100) }),
  app: z.strictObject({ code: Code, name: Name, icon: z.string().max(64).default(''), iconColor: z.string().max(16).default(''), summary: z.string().max(200).default('') }),
  nodes: z.array(PackageNode).max(2000),
  forms: z.array(PackageForm).max(500),
  boards: z.array(z.strictObject({ code: Code, definition: BoardDefinition })).max(200).default([]),
  appApis: z.array(PackageScript).max(1).default([]),
  /** Forms outside the app that its definitions name: the installer maps each to a form of theirs. */
  externalForms: z.array(z.strictObject({ code: Code, name: z.string().max(100) })).max(200).default([]),
  files: z.array(PackageFile).max(10_000).default([]),
  /** The roles, departments and people the flows name by id, with their names (matched by name on install). */
  units: z.array(z.strictObject({ id: z.string().max(64), kind: z.enum(['role', 'department', 'user']), name: z.string().max(100) })).max(5000).default([]),
});
export type AppPackage = z.infer<typeof AppPackage>;
export type AppPackageInput = z.input<typeof AppPackage>;

export const PackageSummary = z.object({
  name: z.string(),
  icon: z.string(),
  formatVersion: z.number(),
  formCount: z.number(),
  nodeCount: z.number(),
  sampleRecordCount: z.number(),
  fileCount: z.number(),
  externalForms: z.array(z.object({ code: z.string(), name: z.string() })),
  roles: z.array(z.string()),
  departments: z.array(z.string()),
});
export type PackageSummary = z.infer<typeof PackageSummary>;

export const PackageProblem = z.object({ path: z.string(), message: z.string() });
export type PackageProblem = z.infer<typeof PackageProblem>;

// The calls (docs/decisions/0130 "Calls"): /v1/app-package/…
export const AppPackageCheckBody = z.strictObject({ appCode: Code });
export const AppPackageCheckResult = z.object({ problems: z.array(PackageProblem) });
export const AppPackageExportBody = z.strictObject({ appCode: Code, sampleData: z.boolean().default(false) });
export const AppPackageIdBody = z.strictObject({ packageId: z.uuid({ error: '须为有效的 id' }) });
export const AppPackageInfoResult = z.object({
  packageId: z.string(),
  summary: PackageSummary,
  /** Roles and departments of the package and what they match here (null: none of that name). */
  roles: z.array(z.object({ name: z.string(), matched: z.string().nullable() })),
  departments: z.array(z.object({ name: z.string(), matched: z.string().nullable() })),
});
export const AppPackageInstallBody = z.strictObject({
  packageId: z.uuid({ error: '须为有效的 id' }),
  sampleData: z.boolean().default(false),
  formMapping: z.record(Code, Code).optional(),
  roleMapping: z.record(z.string().max(100), z.string().max(64)).optional(),
});
export const AppPackageActionBody = z.strictObject({ actionId: z.uuid({ error: '须为有效的 id' }) });
export const AppPackageInstallProgress = z.object({
  actionId: z.string(),
  isComplete: z.boolean(),
  state: z.enum(BACKGROUND_TASK_STATES),
  progress: z.number(),
  message: z.string().nullable(),
  appCode: z.string().optional(),
  unmatched: z.array(z.string()).optional(),
});
export type AppPackageInstallProgress = z.infer<typeof AppPackageInstallProgress>;
export const AppPackageStoredResult = z.object({ packageId: z.string(), summary: PackageSummary, problems: z.array(PackageProblem) });
