import { pluginTemplate } from '@tritium/shared/plugins/catalogue';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { openSecrets, sealSecrets } from '../notification/channels/secret-box.ts';

// The one way every part of the platform asks "is this plugin installed here, and with what settings"
// (docs/decisions/0123). Payment, e-sign, face check, attendance and connectors read their provider's settings here.

export interface InstalledPlugin {
  code: string;
  templateCode: string;
  name: string;
  /** The settings that are not secret, as saved. */
  settings: Record<string, unknown>;
  /** The secret settings, opened; empty when none were saved. */
  secrets: Record<string, string>;
}

/** The first installed instance among these templates (in the order given), or null. */
export async function loadInstalledPlugin(edb: EngineExecutor, templateCodes: string | readonly string[]): Promise<InstalledPlugin | null> {
  const codes = typeof templateCodes === 'string' ? [templateCodes] : [...templateCodes];
  if (!codes.length) return null;
  const rows = await edb.selectFrom('plugin_instances').selectAll().where('template_code', 'in', codes).where('status', '=', 'installed').execute();
  rows.sort((a, b) => codes.indexOf(a.template_code) - codes.indexOf(b.template_code) || a.code.localeCompare(b.code));
  const row = rows[0];
  if (!row) return null;
  const secrets = row.secrets ? openSecrets(row.secrets) : {};
  if (!secrets) throw new AppError('PluginSecretUnreadable', { detail: { name: row.name } });
  return { code: row.code, templateCode: row.template_code, name: row.name, settings: row.settings ?? {}, secrets };
}

/** As loadInstalledPlugin, or the catalogue's refusal "插件未安装" naming the (first) template. */
export async function requireInstalledPlugin(edb: EngineExecutor, templateCodes: string | readonly string[]): Promise<InstalledPlugin> {
  const plugin = await loadInstalledPlugin(edb, templateCodes);
  if (plugin) return plugin;
  const first = typeof templateCodes === 'string' ? templateCodes : templateCodes[0];
  const name = (first && pluginTemplate(first)?.name['zh-CN']) ?? first ?? '';
  throw new AppError('PluginNotInstalled', { detail: { name } });
}

export interface PluginInstancePut {
  templateCode: string;
  /** Defaults to the template's code (one instance per built-in template). */
  code?: string;
  name?: string;
  status: 'notInstalled' | 'installing' | 'installed';
  settings?: Record<string, unknown>;
  /** Secret settings to seal; undefined keeps those stored. */
  secrets?: Record<string, string>;
  userId?: string | null;
}

/** Creates or changes an instance row (the install and uninstall calls, and tests that need a plugin installed). */
export async function putPluginInstance(edb: EngineExecutor, put: PluginInstancePut): Promise<void> {
  const code = put.code ?? put.templateCode;
  const name = put.name ?? pluginTemplate(put.templateCode)?.name['zh-CN'] ?? code;
  const installed = put.status === 'installed';
  const values = {
    template_code: put.templateCode,
    name,
    status: put.status,
    settings: JSON.stringify(put.settings ?? {}),
    ...(put.secrets ? { secrets: sealSecrets(put.secrets) } : {}),
    ...(installed ? { installed_by: put.userId ?? null, installed_time: new Date() } : {}),
    last_error: null,
  };
  await edb
    .insertInto('plugin_instances')
    .values({ code, ...values })
    .onConflict((oc) =>
      oc.column('code').doUpdateSet({ ...values, ...(put.settings === undefined ? { settings: undefined } : {}), modified_time: new Date() }),
    )
    .execute();
}
