import { contracts } from '@tritium/shared';
import { PLUGIN_TEMPLATES, pluginTemplate } from '@tritium/shared/plugins/catalogue';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { openSecrets } from '../notification/channels/secret-box.ts';
import { channelStatus } from './plugin-channels.ts';
import { pluginMethod, type PluginMethodContext } from './plugin-methods.ts';
import { presentCustom } from './custom-plugins.service.ts';
import type { PluginDeps, PluginRow } from './plugins.service.ts';

// What members see of plugins and how they call them (calls.md: "get plugin instances by engine", POST
// /v2/plugin/invoke; docs/decisions/0123). A call needs the plugin installed, the method offered by its template, and
// a provider that registered it; a custom plugin offers `call`, which the connectors module provides.

const CUSTOM_OFFERS = { controls: ['plugin'], automationActions: [], methods: ['call'] };

function offersOf(row: Pick<PluginRow, 'template_code'>) {
  const template = pluginTemplate(row.template_code);
  if (!template) return CUSTOM_OFFERS;
  return { controls: [...template.offers.controls], automationActions: [...template.offers.automationActions], methods: [...template.offers.methods] };
}

/** Every template with its status here, then the engine's own published plugins; never a setting. */
export async function listInstances(edb: EngineExecutor): Promise<contracts.PluginInstanceListResult> {
  const rows = await edb.selectFrom('plugin_instances').selectAll().execute();
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const channels = await channelStatus(edb);
  const items: contracts.PluginInstanceDto[] = PLUGIN_TEMPLATES.map((t) => ({
    code: t.code,
    name: t.name['zh-CN'],
    templateCode: t.code,
    kind: t.kind,
    status: byCode.get(t.code)?.status ?? channels[t.code] ?? 'notInstalled',
    offers: offersOf({ template_code: t.code }),
    custom: null,
  }));
  for (const row of rows) {
    if (row.template_code !== contracts.CUSTOM_PLUGIN_TEMPLATE || row.publication !== 'published') continue;
    const dto = presentCustom(row);
    items.push({
      code: row.code, name: row.name, templateCode: row.template_code, kind: 'custom', status: row.status, offers: CUSTOM_OFFERS,
      custom: { buttonText: dto.definition.buttonText, outputs: dto.definition.outputs },
    });
  }
  return { items };
}

export async function invoke(actor: NodeContext, deps: PluginDeps, body: contracts.PluginInvokeBody): Promise<contracts.PluginInvokeResult> {
  const edb = engineOf(actor);
  const row = await edb.selectFrom('plugin_instances').selectAll().where('code', '=', body.pluginCode).executeTakeFirst();
  const template = pluginTemplate(body.pluginCode);
  if (!row && !template) throw new AppError('PluginNotFound', { detail: { code: body.pluginCode } });
  const name = row?.name ?? template!.name['zh-CN'];
  if (row?.status !== 'installed') throw new AppError('PluginNotInstalled', { detail: { name } });
  if (!offersOf(row).methods.includes(body.method)) throw new AppError('PluginMethodNotOffered', { detail: { name, method: body.method } });
  const method = pluginMethod(row.template_code, body.method);
  if (!method) throw new AppError('PluginMethodUnavailable', { detail: { name, method: body.method } });
  const secrets = row.secrets ? openSecrets(row.secrets) : {};
  if (!secrets) throw new AppError('PluginSecretUnreadable', { detail: { name } });
  const user = await edb.selectFrom('org_users').select('name').where('id', '=', actor.userId).executeTakeFirst();
  const ctx: PluginMethodContext = {
    db: actor.db, engineCode: actor.engineCode, edb, user: { userId: actor.userId, name: user?.name ?? '' },
    plugin: { code: row.code, templateCode: row.template_code, name, settings: row.settings ?? {}, secrets },
    http: deps.http, publicUrl: deps.publicUrl,
  };
  return { result: (await method(ctx, body.params)) ?? null };
}
