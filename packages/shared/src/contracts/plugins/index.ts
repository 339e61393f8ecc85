import { z } from 'zod';
import { PLUGIN_INSTALL_STATUSES, PLUGIN_PUBLICATION_STATES } from '../../constants/messages.ts';
import { codeSchema } from '../../validation/zod.ts';

// Plugins of an engine (issue 44; docs/decisions/0123). Administrators install the platform's templates and author
// their own plugins at /v1/plugin/*; members list the instances and call POST /v2/plugin/invoke. Secret settings are
// write-only: answers name the secret keys that are set, and a save that leaves one out keeps it.

export const PluginInstallStatus = z.enum(PLUGIN_INSTALL_STATUSES);
export type PluginInstallStatus = z.infer<typeof PluginInstallStatus>;
export const PluginPublication = z.enum(PLUGIN_PUBLICATION_STATES);
export type PluginPublication = z.infer<typeof PluginPublication>;

/** The template code of plugins an engine authors. */
export const CUSTOM_PLUGIN_TEMPLATE = 'custom';

const SettingValue = z.union([z.string().max(20_000), z.number(), z.boolean(), z.null()]);
/** Checked against the template's fields on the server (required, url, number, select; unknown keys refused). */
const Settings = z.record(z.string().max(64), SettingValue).default(() => ({}));
const Secrets = z.record(z.string().max(64), z.string().max(20_000)).default(() => ({}));

/** One template of the catalogue with this engine's state of it. */
export const PluginCatalogueItem = z.object({
  templateCode: z.string(),
  status: PluginInstallStatus,
  settings: z.record(z.string(), z.unknown()),
  /** The secret settings that are stored (their values never leave the server). */
  secretsSet: z.array(z.string()),
  lastError: z.string().nullable(),
  installedTime: z.string().nullable(),
});
export type PluginCatalogueItem = z.infer<typeof PluginCatalogueItem>;
export const PluginCatalogueResult = z.object({ items: z.array(PluginCatalogueItem) });
export type PluginCatalogueResult = z.infer<typeof PluginCatalogueResult>;

/** POST /v1/plugin/install: a template's code, or the code of a published plugin of the engine's own. */
/** A template's code (the catalogue's have hyphens: esign-tsign) or an engine plugin's code. */
const PluginCode = z.union([z.string().trim().regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/), codeSchema.max(64)]);
export const PluginInstallBody = z.strictObject({ code: PluginCode, settings: Settings, secrets: Secrets });
export type PluginInstallBody = z.infer<typeof PluginInstallBody>;
/** POST /v1/plugin/settings: an installed plugin's settings; a secret left out (or empty) keeps the stored one. */
export const PluginSettingsBody = PluginInstallBody;
export type PluginSettingsBody = z.infer<typeof PluginSettingsBody>;
export const PluginCodeBody = z.strictObject({ code: PluginCode });
export type PluginCodeBody = z.infer<typeof PluginCodeBody>;

/** The answer of install, settings and uninstall. */
export const PluginChangeResult = z.object({
  item: PluginCatalogueItem,
  /** Uninstall: what stays (settings and everything written while installed). */
  kept: z.boolean(),
});
export type PluginChangeResult = z.infer<typeof PluginChangeResult>;

/** What a custom plugin does: call one connector with the form's values and show some of its outputs. */
export const CustomPluginDefinition = z.strictObject({
  connectorCode: codeSchema.max(64),
  buttonText: z.string().trim().min(1, '请输入按钮文字').max(20, '按钮文字最多 20 个字'),
  /** The connector's outputs shown under the button and stored as the control's value (none: all). */
  outputs: z.array(z.string().trim().min(1).max(64)).max(30).default(() => []),
});
export type CustomPluginDefinition = z.infer<typeof CustomPluginDefinition>;

export const CustomPluginSaveBody = z.strictObject({
  /** Absent: a new plugin. */
  originalCode: codeSchema.max(64).optional(),
  code: codeSchema.max(64),
  name: z.string().trim().min(1, '请输入名称').max(50, '名称最多 50 个字'),
  description: z.string().trim().max(500, '说明最多 500 个字').default(''),
  definition: CustomPluginDefinition,
});
export type CustomPluginSaveBody = z.infer<typeof CustomPluginSaveBody>;

export const CustomPluginReviewBody = z.strictObject({
  code: codeSchema.max(64),
  approve: z.boolean(),
  reason: z.string().trim().max(500, '原因最多 500 个字').default(''),
});
export type CustomPluginReviewBody = z.infer<typeof CustomPluginReviewBody>;

export const CustomPluginDto = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  definition: CustomPluginDefinition,
  publication: PluginPublication,
  /** Why the last review sent it back, if it did. */
  rejectReason: z.string().nullable(),
  status: PluginInstallStatus,
  modifiedTime: z.string(),
});
export type CustomPluginDto = z.infer<typeof CustomPluginDto>;
export const CustomPluginListResult = z.object({ items: z.array(CustomPluginDto) });
export type CustomPluginListResult = z.infer<typeof CustomPluginListResult>;

/** "Plugin instances of an engine" (calls.md) as any member reads them: no settings. */
export const PluginInstanceDto = z.object({
  code: z.string(),
  name: z.string(),
  templateCode: z.string(),
  kind: z.string(),
  status: PluginInstallStatus,
  /** What the plugin offers (the template's, or a custom plugin's one method `call`). */
  offers: z.object({ controls: z.array(z.string()), automationActions: z.array(z.string()), methods: z.array(z.string()) }),
  /** A custom plugin's button text and outputs shown; null for templates. */
  custom: z.object({ buttonText: z.string(), outputs: z.array(z.string()) }).nullable(),
});
export type PluginInstanceDto = z.infer<typeof PluginInstanceDto>;
export const PluginInstanceListResult = z.object({ items: z.array(PluginInstanceDto) });
export type PluginInstanceListResult = z.infer<typeof PluginInstanceListResult>;

/** POST /v2/plugin/invoke */
export const PluginInvokeBody = z.strictObject({
  pluginCode: PluginCode,
  method: z.string().trim().min(1, '请指定方法').max(64).regex(/^[A-Za-z][A-Za-z0-9]*$/, '方法名只能包含字母和数字'),
  params: z.record(z.string().max(64), z.unknown()).default(() => ({})),
});
export type PluginInvokeBody = z.infer<typeof PluginInvokeBody>;
export const PluginInvokeResult = z.object({ result: z.unknown() });
export type PluginInvokeResult = z.infer<typeof PluginInvokeResult>;
