import { z } from 'zod';

// The code editor's calls (/v1/codeeditor/*, docs/decisions/0118): a form's server and browser scripts and an app's
// custom APIs, every save a version with author and time. App administrators only, except `runtime`.

/** The three parts of custom code: a form's server script, a form's browser script, an app's custom APIs. */
export const CUSTOM_CODE_PARTS = ['form-server', 'form-browser', 'app-api'] as const;
export const CustomCodePart = z.enum(CUSTOM_CODE_PARTS, { message: '代码类型须为 form-server、form-browser 或 app-api' });
export type CustomCodePart = z.infer<typeof CustomCodePart>;

/** The parts a form has; an app has only `app-api`. */
export const FORM_CODE_PARTS: readonly CustomCodePart[] = ['form-server', 'form-browser'];

export const CustomCodeLanguage = z.enum(['ts', 'js'], { message: '语言须为 ts 或 js' });
export type CustomCodeLanguage = z.infer<typeof CustomCodeLanguage>;

/** A source is at most 256 KB (UTF-8). */
export const CUSTOM_CODE_MAX_BYTES = 256 * 1024;

const Code = z.string().trim().min(1, '编码不能为空').max(64, '编码最多 64 个字符');
const Source = z
  .string()
  .refine((s) => !s.includes('\u0000'), '代码中不能含有空字符（NUL）')
  .refine((s) => new TextEncoder().encode(s).length <= CUSTOM_CODE_MAX_BYTES, '代码最多 256 KB');

/** Which code: an app's (`schemaCode` absent: the app's own part) or one of its forms'. */
export const CodeOwnerBody = z.strictObject({ appCode: Code, schemaCode: Code.optional() });
export type CodeOwnerBody = z.infer<typeof CodeOwnerBody>;

/** POST /v1/codeeditor/load: a form's code may be named by its schema code alone (its app is then the form's). */
export const CodeLoadBody = z
  .strictObject({ appCode: Code.optional(), schemaCode: Code.optional() })
  .refine((b) => b.appCode !== undefined || b.schemaCode !== undefined, { message: '须指定应用或表单', path: ['appCode'] });
export type CodeLoadBody = z.infer<typeof CodeLoadBody>;

export const CodePartDto = z.object({
  part: CustomCodePart,
  language: CustomCodeLanguage,
  source: z.string(),
  /** 0 before the first save (the source is then the starter template). */
  version: z.number().int(),
  authorId: z.string().nullable(),
  authorName: z.string().nullable(),
  updatedTime: z.string().nullable(),
});
export type CodePartDto = z.infer<typeof CodePartDto>;

export const CodeLoadResult = z.object({
  appCode: z.string(),
  appName: z.string(),
  schemaCode: z.string().nullable(),
  formName: z.string().nullable(),
  parts: z.array(CodePartDto),
  /** Whether the caller may save (always true today: only app administrators load). */
  canEdit: z.boolean(),
});
export type CodeLoadResult = z.infer<typeof CodeLoadResult>;

/** POST /v1/codeeditor/save: refused (410101) when `baseVersion` is not the current version. */
export const CodeSaveBody = CodeOwnerBody.extend({
  part: CustomCodePart,
  language: CustomCodeLanguage,
  source: Source,
  baseVersion: z.number().int().min(0),
});
export type CodeSaveBody = z.infer<typeof CodeSaveBody>;

export const CodeSaveResult = z.object({ version: z.number().int(), updatedTime: z.string() });
export type CodeSaveResult = z.infer<typeof CodeSaveResult>;

/** POST /v1/codeeditor/check */
export const CodeCheckBody = z.strictObject({ part: CustomCodePart, language: CustomCodeLanguage, source: Source, appCode: Code.optional(), schemaCode: Code.optional() });
export type CodeCheckBody = z.infer<typeof CodeCheckBody>;

export const CodeDiagnostic = z.object({
  /** 1-based line and column in the script. */
  line: z.number().int(),
  column: z.number().int(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
});
export type CodeDiagnostic = z.infer<typeof CodeDiagnostic>;

export const CodeCheckResult = z.object({ diagnostics: z.array(CodeDiagnostic) });
export type CodeCheckResult = z.infer<typeof CodeCheckResult>;

/** POST /v1/codeeditor/versions */
export const CodeVersionsBody = CodeOwnerBody.extend({ part: CustomCodePart });
export type CodeVersionsBody = z.infer<typeof CodeVersionsBody>;

export const CodeVersionDto = z.object({
  version: z.number().int(),
  language: CustomCodeLanguage,
  authorId: z.string().nullable(),
  authorName: z.string().nullable(),
  createdTime: z.string(),
  /** The source's size in bytes (UTF-8). */
  size: z.number().int(),
});
export type CodeVersionDto = z.infer<typeof CodeVersionDto>;

export const CodeVersionsResult = z.object({ list: z.array(CodeVersionDto) });
export type CodeVersionsResult = z.infer<typeof CodeVersionsResult>;

/** POST /v1/codeeditor/version and /rollback */
export const CodeVersionBody = CodeVersionsBody.extend({ version: z.number().int().min(1) });
export type CodeVersionBody = z.infer<typeof CodeVersionBody>;

export const CodeVersionResult = CodeVersionDto.extend({ source: z.string() });
export type CodeVersionResult = z.infer<typeof CodeVersionResult>;

/** POST /v1/codeeditor/runtime: the form's compiled browser script, for anyone who may open the form. */
export const CodeRuntimeBody = z.strictObject({ schemaCode: Code });
export const CodeRuntimeResult = z.object({ script: z.object({ js: z.string(), version: z.number().int() }).nullable() });
export type CodeRuntimeResult = z.infer<typeof CodeRuntimeResult>;

export * from './dryrun.ts';
export * from './actions.ts';
