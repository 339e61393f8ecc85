import { contracts } from '@tritium/shared';
import { PLUGIN_TEMPLATES, pluginTemplate, type PluginTemplate } from '@tritium/shared/plugins/catalogue';
import type { Selectable } from 'kysely';
import type { PluginInstanceTable } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordOperation } from '../audit/oplog.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, inEngineTransaction, type NodeContext } from '../function-node/node-context.ts';
import { openSecrets, sealSecrets } from '../notification/channels/secret-box.ts';
import { channelStatus, switchChannels } from './plugin-channels.ts';
import { pluginMethod, type PluginMethodContext } from './plugin-methods.ts';
import { checkSettings } from './plugin-settings.ts';

// Installing, changing and uninstalling an engine's plugins (docs/decisions/0123). Install writes `installing` and
// commits, runs the template's install check (a method `verify`, when a provider registered one) outside any
// transaction, then writes `installed` — or `notInstalled` with the check's message. Uninstall keeps the settings and
// everything written while installed. Every change is in the operation log, secrets masked.

export type PluginRow = Selectable<PluginInstanceTable>;
export interface PluginDeps {
  http: typeof fetch;
  publicUrl: string;
}

/** An `installing` row older than this was left by a process that stopped mid-check: it may be installed again. */
const STALE_INSTALLING_MS = 2 * 60_000;
const CUSTOM_TEMPLATE: PluginTemplate = {
  code: contracts.CUSTOM_PLUGIN_TEMPLATE,
  kind: 'connector',
  name: { 'zh-CN': '自定义插件', 'en-US': 'Custom plugin' },
  description: { 'zh-CN': '', 'en-US': '' },
  settings: [],
  offers: { controls: ['plugin'], automationActions: [], methods: ['call'] },
};

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);
const secretKeysOf = (row: Pick<PluginRow, 'secrets'> | undefined) => Object.keys((row?.secrets && openSecrets(row.secrets)) || {}).sort();

export function presentItem(templateCode: string, row: PluginRow | undefined, derivedStatus?: contracts.PluginInstallStatus): contracts.PluginCatalogueItem {
  return {
    templateCode,
    status: row?.status ?? derivedStatus ?? 'notInstalled',
    settings: row?.settings ?? {},
    secretsSet: secretKeysOf(row),
    lastError: row?.last_error ?? null,
    installedTime: row?.status === 'installed' ? iso(row.installed_time) : null,
  };
}

export async function getRow(edb: EngineExecutor, code: string, lock = false): Promise<PluginRow | undefined> {
  let query = edb.selectFrom('plugin_instances').selectAll().where('code', '=', code);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The platform's templates with this engine's state of each. */
export async function catalogue(edb: EngineExecutor): Promise<contracts.PluginCatalogueResult> {
  const rows = await edb.selectFrom('plugin_instances').selectAll().where('template_code', '!=', contracts.CUSTOM_PLUGIN_TEMPLATE).execute();
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const channels = await channelStatus(edb);
  return { items: PLUGIN_TEMPLATES.map((t) => presentItem(t.code, byCode.get(t.code), channels[t.code])) };
}

/** The template a code installs: a built-in one, or the engine's own published plugin. */
async function templateOf(edb: EngineExecutor, code: string, row: PluginRow | undefined): Promise<{ template: PluginTemplate; name: string }> {
  const builtIn = pluginTemplate(code);
  if (builtIn) return { template: builtIn, name: builtIn.name['zh-CN'] };
  if (!row || row.template_code !== contracts.CUSTOM_PLUGIN_TEMPLATE) throw new AppError('PluginNotFound', { detail: { code } });
  return { template: CUSTOM_TEMPLATE, name: row.name };
}

async function userName(edb: EngineExecutor, userId: string): Promise<string> {
  const row = await edb.selectFrom('org_users').select('name').where('id', '=', userId).executeTakeFirst();
  return row?.name ?? '';
}

/** Runs the template's install check, if one is registered; answers its refusal's message, or null when it passed. */
async function verify(actor: NodeContext, deps: PluginDeps, plugin: PluginMethodContext['plugin']): Promise<string | null> {
  const check = pluginMethod(plugin.templateCode, 'verify');
  if (!check) return null;
  const edb = engineOf(actor);
  const ctx: PluginMethodContext = { db: actor.db, engineCode: actor.engineCode, edb, user: { userId: actor.userId, name: await userName(edb, actor.userId) }, plugin, http: deps.http, publicUrl: deps.publicUrl };
  try {
    await check(ctx, {});
    return null;
  } catch (error) {
    // A provider's own refusal reads as it is; anything else is not shown (it may carry internals).
    return error instanceof AppError ? error.message : '检查时发生错误，请稍后重试';
  }
}

const maskedSecrets = (secrets: Record<string, string>) => Object.fromEntries(Object.keys(secrets).map((k) => [k, contracts.MASKED]));

export async function install(actor: NodeContext, deps: PluginDeps, body: contracts.PluginInstallBody): Promise<contracts.PluginChangeResult> {
  const started = await inEngineTransaction(actor, async (edb) => {
    const row = await getRow(edb, body.code, true);
    const { template, name } = await templateOf(edb, body.code, row);
    if (template.unavailableReason) {
      throw new AppError('PluginUnavailable', { detail: { name, reasonZh: template.unavailableReason['zh-CN'], reasonEn: template.unavailableReason['en-US'] } });
    }
    if (row?.template_code === contracts.CUSTOM_PLUGIN_TEMPLATE && row.publication !== 'published') throw new AppError('PluginNotPublished', { detail: { name } });
    if (row?.status === 'installed') throw new AppError('PluginAlreadyInstalled', { detail: { name } });
    if (row?.status === 'installing' && Date.now() - new Date(row.modified_time).getTime() < STALE_INSTALLING_MS) throw new AppError('PluginInstallBusy', { detail: { name } });
    const stored = (row?.secrets && openSecrets(row.secrets)) || {};
    const checked = checkSettings(template, body.settings, body.secrets, Object.keys(stored));
    const secrets = { ...stored, ...checked.secrets };
    const values = {
      template_code: template.code,
      name,
      status: 'installing' as const,
      settings: JSON.stringify(checked.settings),
      secrets: Object.keys(secrets).length ? sealSecrets(secrets) : null,
      last_error: null,
      modified_time: new Date(),
    };
    if (row) await edb.updateTable('plugin_instances').set(values).where('code', '=', body.code).execute();
    else await edb.insertInto('plugin_instances').values({ code: body.code, ...values }).execute();
    return { plugin: { code: body.code, templateCode: template.code, name, settings: checked.settings, secrets }, given: checked.secrets };
  });
  // Committed as `installing`: the check may call the provider and take seconds.
  const failure = await verify(actor, deps, started.plugin);
  return inEngineTransaction(actor, async (edb) => {
    const status = failure ? ('notInstalled' as const) : ('installed' as const);
    await edb
      .updateTable('plugin_instances')
      .set({ status, last_error: failure, modified_time: new Date(), ...(failure ? {} : { installed_by: actor.userId, installed_time: new Date() }) })
      .where('code', '=', body.code)
      .execute();
    if (!failure) await switchChannels(edb, started.plugin.templateCode, true);
    const row = (await getRow(edb, body.code))!;
    const item = presentItem(body.code === row.template_code ? row.template_code : row.code, row);
    await recordOperation(edb, actor, {
      kind: 'plugin', action: 'enable', objectId: body.code, objectName: started.plugin.name,
      after: { status, settings: started.plugin.settings, secrets: maskedSecrets(started.given), ...(failure ? { lastError: failure } : {}) },
    });
    return { item, kept: false, failure };
  }).then(({ item, kept, failure: message }) => {
    if (message) throw new AppError('PluginVerifyFailed', { detail: { name: started.plugin.name, message } });
    return { item, kept };
  });
}

export async function changeSettings(actor: NodeContext, deps: PluginDeps, body: contracts.PluginSettingsBody): Promise<contracts.PluginChangeResult> {
  const edb0 = engineOf(actor);
  const current = await getRow(edb0, body.code);
  const { template, name } = await templateOf(edb0, body.code, current);
  if (current?.status !== 'installed') throw new AppError('PluginNotInstalled', { detail: { name } });
  const stored = (current.secrets && openSecrets(current.secrets)) || {};
  const checked = checkSettings(template, body.settings, body.secrets, Object.keys(stored));
  const secrets = { ...stored, ...checked.secrets };
  // The new settings are checked with the provider before they replace the old ones.
  const failure = await verify(actor, deps, { code: body.code, templateCode: template.code, name, settings: checked.settings, secrets });
  if (failure) throw new AppError('PluginVerifyFailed', { detail: { name, message: failure } });
  return inEngineTransaction(actor, async (edb) => {
    const row = await getRow(edb, body.code, true);
    if (row?.status !== 'installed') throw new AppError('PluginNotInstalled', { detail: { name } });
    await edb
      .updateTable('plugin_instances')
      .set({ settings: JSON.stringify(checked.settings), secrets: Object.keys(secrets).length ? sealSecrets(secrets) : null, last_error: null, modified_time: new Date() })
      .where('code', '=', body.code)
      .execute();
    await recordOperation(edb, actor, {
      kind: 'plugin', action: 'update', objectId: body.code, objectName: name,
      before: { settings: row.settings }, after: { settings: checked.settings, secrets: maskedSecrets(checked.secrets) },
    });
    return { item: presentItem(row.template_code === contracts.CUSTOM_PLUGIN_TEMPLATE ? row.code : row.template_code, (await getRow(edb, body.code))!), kept: false };
  });
}

/** Not installed from now on; the settings, and every record, flow and order written meanwhile, stay. */
export async function uninstall(actor: NodeContext, code: string): Promise<contracts.PluginChangeResult> {
  return inEngineTransaction(actor, async (edb) => {
    const row = await getRow(edb, code, true);
    const { name } = await templateOf(edb, code, row);
    if (!row || row.status === 'notInstalled') {
      // Built-in channels (sms/email/robot) may be on without a row: uninstalling them turns the channel off.
      const derived = (await channelStatus(edb))[code];
      if (derived !== 'installed') throw new AppError('PluginNotInstalled', { detail: { name } });
    }
    if (row) await edb.updateTable('plugin_instances').set({ status: 'notInstalled', modified_time: new Date() }).where('code', '=', code).execute();
    else await edb.insertInto('plugin_instances').values({ code, template_code: code, name, status: 'notInstalled' }).execute();
    await switchChannels(edb, row?.template_code ?? code, false);
    await recordOperation(edb, actor, { kind: 'plugin', action: 'disable', objectId: code, objectName: name, before: { status: row?.status ?? 'installed' }, after: { status: 'notInstalled' } });
    const after = (await getRow(edb, code))!;
    return { item: presentItem(after.template_code === contracts.CUSTOM_PLUGIN_TEMPLATE ? after.code : after.template_code, after), kept: true };
  });
}
