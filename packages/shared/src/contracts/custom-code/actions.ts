import { z } from 'zod';

// Running a script's actions from the browser (docs/decisions/0118): a form's button or browser script calls its
// form's server action (POST /v1/codeeditor/action); a page calls an app's custom API (POST /v1/codeeditor/invoke).

const Code = z.string().trim().min(1, '编码不能为空').max(64, '编码最多 64 个字符');

/** A name a script exports under `actions`: an identifier, so it names exactly one handler. */
export const ScriptActionName = z
  .string()
  .trim()
  .regex(/^[A-Za-z_$][\w$]{0,99}$/, '动作名称只能由字母、数字、下划线或 $ 组成，不能以数字开头，最多 100 个字符');

export const FormActionBody = z.strictObject({
  schemaCode: Code,
  /** The record the form shows; absent for a new one. */
  objectId: z.string().trim().min(1).max(64).optional(),
  actionName: ScriptActionName,
  /** The form's values as a save would send them (not stored: the answer says what the script changed). */
  values: z.record(z.string(), z.unknown()).optional(),
  children: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).optional(),
  params: z.unknown().optional(),
});
export type FormActionBody = z.infer<typeof FormActionBody>;

export const FormActionResult = z.object({
  /** Fields the script changed: the form sets them (nothing is stored until the person saves). */
  values: z.record(z.string(), z.unknown()),
  /** The action's return value, or what it sent with ctx.respond. */
  data: z.unknown().optional(),
});
export type FormActionResult = z.infer<typeof FormActionResult>;

/** A list button of the form's list script: `onListAction` with the records chosen (at most 500). */
export const ListActionBody = z.strictObject({
  schemaCode: Code,
  actionName: ScriptActionName,
  objectIds: z.array(z.string().trim().min(1).max(64)).max(500, '一次最多 500 条数据'),
});
export type ListActionBody = z.infer<typeof ListActionBody>;
export const ListActionResult = z.object({ data: z.unknown().optional() });
export type ListActionResult = z.infer<typeof ListActionResult>;

export const AppInvokeBody = z.strictObject({ appCode: Code, actionName: ScriptActionName, params: z.unknown().optional() });
export type AppInvokeBody = z.infer<typeof AppInvokeBody>;
export const AppInvokeResult = z.object({ data: z.unknown() });
export type AppInvokeResult = z.infer<typeof AppInvokeResult>;

/** The engine's limits of a script run (docs/decisions/0118), within the platform's bounds. */
export const SCRIPT_LIMIT_BOUNDS = { cpuMs: { min: 100, max: 10_000, default: 2_000 }, memoryMb: { min: 8, max: 256, default: 64 } } as const;
export const ScriptLimits = z.strictObject({
  cpuMs: z.number().int().min(SCRIPT_LIMIT_BOUNDS.cpuMs.min).max(SCRIPT_LIMIT_BOUNDS.cpuMs.max),
  memoryMb: z.number().int().min(SCRIPT_LIMIT_BOUNDS.memoryMb.min).max(SCRIPT_LIMIT_BOUNDS.memoryMb.max),
});
export type ScriptLimits = z.infer<typeof ScriptLimits>;
export const ScriptLimitsResult = ScriptLimits.extend({
  /** Whether the engine set its own (else the platform's defaults). */
  custom: z.boolean(),
  /** Administrators may change them. */
  canEdit: z.boolean(),
});
export type ScriptLimitsResult = z.infer<typeof ScriptLimitsResult>;
