import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { pluginTemplate } from '@tritium/shared/plugins/catalogue';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { assertMayChange, canReadRecord } from '../business-data/record-policy.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import type { FileStore } from '../files/file-store.ts';
import { setClaim } from '../files/files.repo.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, inEngineTransaction, type NodeContext } from '../function-node/node-context.ts';
import { openSecrets } from '../notification/channels/secret-box.ts';
import { isHidden } from '../permission/form-rights.ts';
import { notify } from '../notification/notify.ts';
import { loadInstalledPlugin, requireInstalledPlugin, type InstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import type { PdfRenderer } from '../print/print-pdf.ts';
import { fileNameOf, recordFileRow, renderRecordPdf, storeBytes } from './esign-document.ts';
import { addEvent, findFlow, latestFlowOf, setFlow, type FlowRow } from './esign-flows.repo.ts';
import { presentFlow } from './esign-presenter.ts';
import { CALLBACK_NAMES, ESIGN_TEMPLATES, type ESignProvider, type ESignTemplateCode, type ProviderSigner } from './esign-provider.ts';
import { writeFlowOnRecord } from './esign-record.ts';
import { fddProvider } from './fdd-adapter.ts';
import { tsignProvider } from './tsign-adapter.ts';

// E-signature flows (issue 44; docs/decisions/0123, e-signature). Start: a member who may edit the record has its
// e-sign control's print template rendered to PDF, uploaded to the installed provider (e签宝 or 法大大) and sent to the
// signers in order — the first becomes Signing, the others Waiting, and each is told by an in-app message with their
// signing link when it is their turn. The provider's callbacks (esign-callbacks.ts) move the signers and the flow;
// the initiator may revoke a running flow. Calls to the provider run outside any transaction.

export interface ESignDeps {
  db: Db;
  http: typeof fetch;
  store: FileStore;
  pdf: PdfRenderer;
  /** The platform's public address, ending in '/' (the providers' callbacks come to it). */
  publicUrl: string;
}

export function providerOf(plugin: Pick<InstalledPlugin, 'templateCode' | 'settings' | 'secrets'>, http: typeof fetch): ESignProvider {
  const settings = { baseUrl: String(plugin.settings.baseUrl ?? ''), appId: String(plugin.settings.appId ?? ''), appSecret: plugin.secrets.appSecret ?? '', http };
  return plugin.templateCode === 'esign-fdd' ? fddProvider(settings) : tsignProvider(settings);
}

/**
 * The provider a flow was started with, installed or not: a flow started before an uninstall runs to its end (its
 * callbacks are still checked with the settings kept).
 */
export async function providerOfFlow(edb: EngineExecutor, templateCode: string, http: typeof fetch): Promise<ESignProvider> {
  const row = await edb.selectFrom('plugin_instances').selectAll().where('template_code', '=', templateCode).orderBy('code').executeTakeFirst();
  const name = pluginTemplate(templateCode)?.name['zh-CN'] ?? templateCode;
  if (!row) throw new AppError('PluginNotInstalled', { detail: { name } });
  const secrets = row.secrets ? openSecrets(row.secrets) : {};
  if (!secrets) throw new AppError('PluginSecretUnreadable', { detail: { name } });
  return providerOf({ templateCode, settings: row.settings ?? {}, secrets }, http);
}

export const callbackUrlOf = (publicUrl: string, templateCode: ESignTemplateCode, engineCode: string) =>
  `${publicUrl.replace(/\/?$/, '/')}v1/esign/callback/${CALLBACK_NAMES[templateCode]}/${encodeURIComponent(engineCode)}`;

/**
 * The form's e-sign control as the caller sees it: one hidden from them by the form's field rights is answered as
 * absent, like any hidden field — its flow names the signers, their masked mobiles and the signed document.
 */
function eSignControlOf(form: RuntimeForm, controlCode: string) {
  const control = form.fields.find((f) => f.code === controlCode && f.type.key === 'eSign');
  if (!control || isHidden(form.rights, control.code)) throw new AppError('ESignControlNotFound', { detail: { code: controlCode } });
  return control;
}

/** The record the caller reads (404 as business data says it otherwise). */
async function readableRecord(edb: EngineExecutor, form: RuntimeForm, objectId: string, userId: string) {
  const row = await findRecord(edb, form, objectId);
  if (!row || !(await canReadRecord(edb, form, row, userId))) throw new AppError('BizObjectNotFound', { detail: { objectId } });
  return row;
}

async function mayEdit(edb: EngineExecutor, form: RuntimeForm, row: Parameters<typeof assertMayChange>[2], userId: string): Promise<boolean> {
  try {
    await assertMayChange(edb, form, row, userId, 'edit');
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

/** GET /v1/esign/flow: the record's control's latest flow, and what the caller may do. */
export async function getFlow(ctx: NodeContext, query: z.output<typeof contracts.ESignFlowQuery>): Promise<contracts.ESignFlowResult> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, query.schemaCode);
  eSignControlOf(form, query.controlCode);
  const row = await readableRecord(edb, form, query.objectId, ctx.userId);
  const plugin = await loadInstalledPlugin(edb, ESIGN_TEMPLATES);
  const flow = await latestFlowOf(edb, query);
  return {
    installed: !!plugin,
    providerName: plugin ? (pluginTemplate(plugin.templateCode)?.provider ?? plugin.name) : null,
    canStart: !!plugin && flow?.state !== 'Running' && (await mayEdit(edb, form, row, ctx.userId)),
    flow: flow ? await presentFlow(edb, flow, ctx.userId) : null,
  };
}

async function signersOfInput(edb: EngineExecutor, input: z.output<typeof contracts.ESignStartBody>['signers']): Promise<ProviderSigner[]> {
  const ids = input.map((s) => s.userId);
  if (new Set(ids).size !== ids.length) throw new AppError('ESignSignersInvalid', { detail: { problem: '同一人不能重复签署' } });
  const users = await edb.selectFrom('org_users').select(['id', 'name', 'mobile', 'state']).where('id', 'in', ids).execute();
  return input.map((s, i) => {
    const user = users.find((u) => u.id === s.userId);
    if (!user || user.state !== 'active') throw new AppError('ESignSignersInvalid', { detail: { problem: `第 ${i + 1} 位签署人不存在或已停用` } });
    if (!/^1\d{10}$/.test(user.mobile)) throw new AppError('ESignSignersInvalid', { detail: { problem: `${user.name} 没有可用于签署的手机号` } });
    return { order: i + 1, name: user.name, mobile: user.mobile, forOrganization: s.forOrganization, userId: user.id } as ProviderSigner & { userId: string };
  });
}

/** Tells a signer it is their turn (an in-app message with the signing link; the link in it opens the record). */
export async function tellSigner(edb: EngineExecutor, engineCode: string, flow: Pick<FlowRow, 'schema_code' | 'object_id' | 'initiator'>, signer: { userId: string; signUrl: string | null }, title: string): Promise<void> {
  await notify(edb, engineCode, [signer.userId], {
    category: 'system',
    title: `请签署：${title}`,
    content: signer.signUrl ? `轮到你签署“${title}”。签署链接：${signer.signUrl}` : `轮到你签署“${title}”。`,
    sender: flow.initiator,
    link: { schemaCode: flow.schema_code, objectId: flow.object_id },
  });
}

/** POST /v1/esign/flow/start */
export async function startFlow(ctx: NodeContext, deps: ESignDeps, body: z.output<typeof contracts.ESignStartBody>): Promise<contracts.ESignFlowDto> {
  const edb = engineOf(ctx);
  const plugin = await requireInstalledPlugin(edb, ESIGN_TEMPLATES);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const control = eSignControlOf(form, body.controlCode);
  const row = await readableRecord(edb, form, body.objectId, ctx.userId);
  await assertMayChange(edb, form, row, ctx.userId, 'edit');
  const attachmentCode = control.options.attachmentCode;
  if (typeof attachmentCode === 'string' && !form.fields.some((f) => f.code === attachmentCode && f.type.key === 'attachment')) {
    throw new AppError('ESignAttachmentInvalid', { detail: { name: String(control.options.displayName ?? control.code), code: attachmentCode } });
  }
  const record = { schemaCode: form.node.code, objectId: body.objectId, controlCode: control.code };
  const running = await latestFlowOf(edb, record);
  if (running?.state === 'Running') throw new AppError('ESignFlowRunning', { detail: { name: String(control.options.displayName ?? control.code) } });
  const signers = (await signersOfInput(edb, body.signers)) as (ProviderSigner & { userId: string })[];
  const title = `${form.definition.attributes.displayName}-${String(row.Name ?? row.SeqNo ?? '') || body.objectId.slice(0, 8)}`;
  const templateCode = typeof control.options.templateCode === 'string' ? control.options.templateCode : null;

  const pdf = await renderRecordPdf(ctx, edb, form, body.objectId, templateCode, deps);
  const fileName = fileNameOf(title, '');
  const stored = await storeBytes(deps.store, ctx.engineCode, pdf);
  const provider = providerOf(plugin, deps.http);
  let providerFlowId: string;
  let urls: string[];
  try {
    const fileId = await provider.uploadDocument({ name: fileName, pdf });
    providerFlowId = await provider.createFlow({ title, fileId, fileName, signers, notifyUrl: callbackUrlOf(deps.publicUrl, plugin.templateCode as ESignTemplateCode, ctx.engineCode) });
    urls = await Promise.all(signers.map((s) => provider.signUrl(providerFlowId, s)));
  } catch (error) {
    await deps.store.delete(stored.key).catch(() => undefined);
    throw error;
  }

  const flowId = newId();
  try {
    await inEngineTransaction(ctx, async (tedb) => {
      const now = new Date();
      await recordFileRow(tedb, stored, fileName, ctx.userId);
      await setClaim(tedb, [stored.id], record);
      await tedb
        .insertInto('esign_flows')
        .values({ id: flowId, template_code: plugin.templateCode, provider_flow_id: providerFlowId, schema_code: record.schemaCode, object_id: record.objectId, control_code: record.controlCode, state: 'Running', initiator: ctx.userId, document_file_id: stored.id })
        .execute();
      await tedb
        .insertInto('esign_signers')
        .values(signers.map((s, i) => ({ flow_id: flowId, sign_order: s.order, user_id: s.userId, name: s.name, mobile: s.mobile, for_organization: s.forOrganization, state: i === 0 ? 'Signing' : 'Waiting', sign_url: urls[i] || null, started_time: i === 0 ? now : null })))
        .execute();
      await addEvent(tedb, flowId, { key: 'flow:started', kind: 'started' });
      await addEvent(tedb, flowId, { key: `signer:${signers[0]!.order}:signing`, kind: 'signing', order: signers[0]!.order });
      await writeFlowOnRecord(tedb, ctx.db, ctx.engineCode, { id: flowId, schema_code: record.schemaCode, object_id: record.objectId, control_code: record.controlCode, initiator: ctx.userId }, 'Running');
      await tellSigner(tedb, ctx.engineCode, { schema_code: record.schemaCode, object_id: record.objectId, initiator: ctx.userId }, { userId: signers[0]!.userId, signUrl: urls[0] || null }, title);
    });
  } catch (error) {
    // Two starts at the same moment both pass the check above; the partial unique index esign_flows_one_running lets
    // one commit. The other's flow at the provider would wait for signatures nobody follows, so it is revoked.
    if ((error as { constraint?: string }).constraint !== 'esign_flows_one_running') throw error;
    await deps.store.delete(stored.key).catch(() => undefined);
    await provider.revoke(providerFlowId, '同一记录已有进行中的签署流程').catch(() => undefined);
    throw new AppError('ESignFlowRunning', { detail: { name: String(control.options.displayName ?? control.code) } });
  }
  return presentFlow(edb, (await findFlow(edb, flowId))!, ctx.userId);
}

/** POST /v1/esign/flow/revoke: the initiator ends a running flow at the provider and here. */
export async function revokeFlow(ctx: NodeContext, deps: ESignDeps, flowId: string): Promise<contracts.ESignFlowDto> {
  const edb = engineOf(ctx);
  const flow = await findFlow(edb, flowId);
  if (!flow) throw new AppError('ESignFlowNotFound');
  // Someone who cannot read the record does not learn the flow exists.
  const form = await getRuntimeFormOrThrow(edb, ctx, flow.schema_code).catch(() => null);
  if (!form) throw new AppError('ESignFlowNotFound');
  await readableRecord(edb, form, flow.object_id, ctx.userId).catch(() => {
    throw new AppError('ESignFlowNotFound');
  });
  if (isHidden(form.rights, flow.control_code)) throw new AppError('ESignFlowNotFound');
  if (flow.initiator !== ctx.userId) throw new AppError('ESignNotInitiator');
  if (flow.state !== 'Running') throw new AppError('ESignFlowClosed', { detail: { state: flow.state } });
  await (await providerOfFlow(edb, flow.template_code, deps.http)).revoke(flow.provider_flow_id ?? '', '发起人撤销');
  // The provider's own callback may have ended it already; either way it ends once, with one trail entry.
  await inEngineTransaction(ctx, async (tedb) => {
    const locked = await findFlow(tedb, flowId, { forUpdate: true });
    if (!locked || locked.state !== 'Running') return;
    await addEvent(tedb, flowId, { key: 'flow:revoked', kind: 'revoked' });
    await setFlow(tedb, flowId, { state: 'Revoke', finished_time: new Date() });
    await writeFlowOnRecord(tedb, ctx.db, ctx.engineCode, locked, 'Revoke');
  });
  return presentFlow(edb, (await findFlow(edb, flowId))!, ctx.userId);
}
