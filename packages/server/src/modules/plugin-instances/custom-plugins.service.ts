import { contracts } from '@tritium/shared';
import { pluginTemplate } from '@tritium/shared/plugins/catalogue';
import { AppError } from '../../lib/app-error.ts';
import { recordOperation, type OperationActor } from '../audit/oplog.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { getRow, type PluginRow } from './plugins.service.ts';

// Plugins an engine authors (docs/decisions/0123): a button that calls one connector with the form's values and shows
// some of its outputs. domain.md's publication: pre-publish (editable) → under review (submitted) → published (approved;
// installable), a rejection sending it back to pre-publish with the reason. Administrators only.

const STATE_NAMES: Record<contracts.PluginPublication, { zh: string; en: string }> = {
  prePublish: { zh: '预发布', en: 'pre-publish' },
  underReview: { zh: '审核中', en: 'under review' },
  published: { zh: '已发布', en: 'published' },
};
const ACTION_NAMES = {
  edit: { zh: '修改', en: 'edited' },
  submit: { zh: '提交审核', en: 'submitted for review' },
  review: { zh: '审核', en: 'reviewed' },
} as const;

function refuse(row: PluginRow, action: keyof typeof ACTION_NAMES): never {
  const state = STATE_NAMES[row.publication ?? 'prePublish'];
  const act = ACTION_NAMES[action];
  throw new AppError('PluginPublicationRefused', { detail: { name: row.name, stateZh: state.zh, stateEn: state.en, actionZh: act.zh, actionEn: act.en } });
}

export function presentCustom(row: PluginRow): contracts.CustomPluginDto {
  const def = row.definition ?? {};
  const parsed = contracts.CustomPluginDefinition.safeParse({ connectorCode: def.connectorCode, buttonText: def.buttonText, outputs: def.outputs });
  return {
    code: row.code,
    name: row.name,
    description: typeof def.description === 'string' ? def.description : '',
    definition: parsed.success ? parsed.data : { connectorCode: String(def.connectorCode ?? ''), buttonText: String(def.buttonText ?? ''), outputs: [] },
    publication: row.publication ?? 'prePublish',
    rejectReason: typeof def.rejectReason === 'string' && def.rejectReason ? def.rejectReason : null,
    status: row.status,
    modifiedTime: new Date(row.modified_time).toISOString(),
  };
}

async function customRowOrThrow(edb: EngineExecutor, code: string, lock = false): Promise<PluginRow> {
  const row = await getRow(edb, code, lock);
  if (!row || row.template_code !== contracts.CUSTOM_PLUGIN_TEMPLATE) throw new AppError('PluginNotFound', { detail: { code } });
  return row;
}

export async function listCustom(edb: EngineExecutor): Promise<contracts.CustomPluginListResult> {
  const rows = await edb.selectFrom('plugin_instances').selectAll().where('template_code', '=', contracts.CUSTOM_PLUGIN_TEMPLATE).orderBy('created_time').orderBy('code').execute();
  return { items: rows.map(presentCustom) };
}

/** The connector must exist and have every output named. */
async function checkDefinition(edb: EngineExecutor, definition: contracts.CustomPluginDefinition): Promise<void> {
  const connector = await edb.selectFrom('connectors').select(['code', 'name', 'outputs']).where('code', '=', definition.connectorCode).executeTakeFirst();
  if (!connector) throw new AppError('ConnectorNotFound', { detail: { code: definition.connectorCode } });
  const names = new Set(connector.outputs.map((o) => o.name));
  const unknown = definition.outputs.find((o) => !names.has(o));
  if (unknown) throw new AppError('PluginOutputUnknown', { detail: { connector: connector.name, output: unknown } });
}

/**
 * Creates or changes one in pre-publish. A published plugin that is not installed may be changed too: it goes back to
 * pre-publish and is reviewed again. Under review it waits for the review.
 */
export async function saveCustom(edb: EngineExecutor, actor: OperationActor, body: contracts.CustomPluginSaveBody): Promise<contracts.CustomPluginDto> {
  const existing = body.originalCode ? await customRowOrThrow(edb, body.originalCode, true) : undefined;
  if (existing?.publication === 'underReview') refuse(existing, 'edit');
  if (existing?.status === 'installed' || existing?.status === 'installing') throw new AppError('PluginInstalledLocked', { detail: { name: existing.name } });
  if (body.code !== existing?.code) {
    if (pluginTemplate(body.code) || body.code === contracts.CUSTOM_PLUGIN_TEMPLATE || (await getRow(edb, body.code))) throw new AppError('PluginCodeTaken', { detail: { code: body.code } });
  }
  await checkDefinition(edb, body.definition);
  const definition = JSON.stringify({ ...body.definition, description: body.description });
  const values = { code: body.code, name: body.name, definition, publication: 'prePublish' as const, modified_time: new Date() };
  if (existing) await edb.updateTable('plugin_instances').set(values).where('code', '=', existing.code).execute();
  else await edb.insertInto('plugin_instances').values({ ...values, template_code: contracts.CUSTOM_PLUGIN_TEMPLATE, status: 'notInstalled' }).execute();
  const after = presentCustom((await getRow(edb, body.code))!);
  await recordOperation(edb, actor, { kind: 'plugin', action: existing ? 'update' : 'create', objectId: body.code, objectName: body.name, before: existing ? presentCustom(existing) : undefined, after });
  return after;
}

export async function submitCustom(edb: EngineExecutor, actor: OperationActor, code: string): Promise<contracts.CustomPluginDto> {
  const row = await customRowOrThrow(edb, code, true);
  if (row.publication !== 'prePublish' && row.publication !== null) refuse(row, 'submit');
  return setPublication(edb, actor, row, 'underReview', 'update');
}

export async function reviewCustom(edb: EngineExecutor, actor: OperationActor, body: contracts.CustomPluginReviewBody): Promise<contracts.CustomPluginDto> {
  const row = await customRowOrThrow(edb, body.code, true);
  if (row.publication !== 'underReview') refuse(row, 'review');
  if (!body.approve && !body.reason) throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'reason', message: '请填写退回原因' }] } });
  return body.approve ? setPublication(edb, actor, row, 'published', 'publish') : setPublication(edb, actor, row, 'prePublish', 'revoke', body.reason);
}

async function setPublication(
  edb: EngineExecutor,
  actor: OperationActor,
  row: PluginRow,
  publication: contracts.PluginPublication,
  action: 'update' | 'publish' | 'revoke',
  rejectReason?: string,
): Promise<contracts.CustomPluginDto> {
  const definition = { ...(row.definition ?? {}), rejectReason: rejectReason ?? null };
  await edb.updateTable('plugin_instances').set({ publication, definition: JSON.stringify(definition), modified_time: new Date() }).where('code', '=', row.code).execute();
  await recordOperation(edb, actor, { kind: 'plugin', action, objectId: row.code, objectName: row.name, before: { publication: row.publication }, after: { publication, ...(rejectReason ? { rejectReason } : {}) } });
  return presentCustom((await getRow(edb, row.code))!);
}

/** Removes one that is not installed (an installed one is uninstalled first). */
export async function removeCustom(edb: EngineExecutor, actor: OperationActor, code: string): Promise<{ code: string }> {
  const row = await customRowOrThrow(edb, code, true);
  if (row.status !== 'notInstalled') throw new AppError('PluginInstalledLocked', { detail: { name: row.name } });
  await edb.deleteFrom('plugin_instances').where('code', '=', code).execute();
  await recordOperation(edb, actor, { kind: 'plugin', action: 'remove', objectId: code, objectName: row.name, before: presentCustom(row) });
  return { code };
}
