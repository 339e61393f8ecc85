import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { findEngine } from '../engine/engine.repo.ts';
import { fileNameOf, recordFileRow, storeBytes } from './esign-document.ts';
import { addEvent, findFlow, findFlowOfProvider, setFlow, setSigner, signersOf, type FlowRow } from './esign-flows.repo.ts';
import { providerOfFlow, tellSigner, type ESignDeps } from './esign-flows.service.ts';
import type { CallbackEvent, CallbackPush, ESignTemplateCode } from './esign-provider.ts';
import { writeFlowOnRecord } from './esign-record.ts';

// The providers' callbacks (POST /v1/esign/callback/:provider/:engineCode, public): checked with the provider's own
// signature (a forged or altered one is refused with 450008 and changes nothing), then applied to the flow under its
// row lock. Each step happens once: the trail keeps one entry per signer step and per flow ending, so a callback sent
// again finds its entry and changes nothing. The signed PDF is fetched before the transaction (a call out must not
// hold the database) and kept only if the transaction records it.

export const CALLBACK_TEMPLATES: Record<string, ESignTemplateCode> = { tsign: 'esign-tsign', fdd: 'esign-fdd' };

export async function receiveCallback(deps: Pick<ESignDeps, 'db' | 'http' | 'store'>, provider: string, engineCode: string, push: CallbackPush): Promise<{ code: string; msg: string }> {
  const templateCode = CALLBACK_TEMPLATES[provider];
  if (!templateCode || !(await findEngine(deps.db, engineCode))) throw new AppError('ESignCallbackUnknown');
  const edb = engineDb(deps.db, engineCode);
  const adapter = await providerOfFlow(edb, templateCode, deps.http).catch(() => null);
  const event = adapter?.openCallback(push);
  if (!adapter || !event) throw new AppError('ESignCallbackRejected');
  const flow = await findFlowOfProvider(edb, templateCode, event.providerFlowId);
  if (!flow) throw new AppError('ESignCallbackUnknown');
  if (event.kind === 'other') return { code: '200', msg: 'success' };

  let stored: { id: string; key: string; size: number } | undefined;
  if (event.kind === 'finished' && flow.state === 'Running' && !flow.signed_file_id) stored = await storeBytes(deps.store, engineCode, await adapter.downloadSigned(event.providerFlowId));
  let kept = false;
  await deps.db.transaction().execute(async (trx) => {
    const tedb = engineDb(trx as unknown as Db, engineCode);
    const locked = await findFlow(tedb, flow.id, { forUpdate: true });
    if (!locked) return;
    kept = await apply(tedb, deps.db, engineCode, locked, event, stored);
  });
  if (stored && !kept) await deps.store.delete(stored.key).catch(() => undefined);
  return { code: '200', msg: 'success' };
}

/** One verified event on a locked flow; answers whether the stored signed file was recorded. */
async function apply(edb: EngineExecutor, db: Db, engineCode: string, flow: FlowRow, event: CallbackEvent, stored?: { id: string; key: string; size: number }): Promise<boolean> {
  const signers = await signersOf(edb, flow.id);
  const signer = event.order == null ? undefined : signers.find((s) => s.sign_order === event.order);
  const now = new Date();
  const running = flow.state === 'Running';
  switch (event.kind) {
    case 'awaitingApproval':
      if (!signer || !(await addEvent(edb, flow.id, { key: `signer:${signer.sign_order}:awaitingApproval`, kind: 'awaitingApproval', order: signer.sign_order }))) return false;
      if (running && signer.state === 'Signing') await setSigner(edb, flow.id, signer.sign_order, { state: 'WaitForApproval' });
      return false;
    case 'signed': {
      if (!signer || !(await addEvent(edb, flow.id, { key: `signer:${signer.sign_order}:signed`, kind: 'signed', order: signer.sign_order }))) return false;
      if (!running || (signer.state !== 'Signing' && signer.state !== 'WaitForApproval')) return false;
      await setSigner(edb, flow.id, signer.sign_order, { state: 'Complete', signed_time: now });
      const next = signers.find((s) => s.sign_order > signer.sign_order && s.state === 'Waiting');
      if (next) {
        await setSigner(edb, flow.id, next.sign_order, { state: 'Signing', started_time: now });
        await addEvent(edb, flow.id, { key: `signer:${next.sign_order}:signing`, kind: 'signing', order: next.sign_order });
        await tellSigner(edb, engineCode, flow, { userId: next.user_id, signUrl: next.sign_url }, await titleOf(edb, flow));
      }
      return false;
    }
    case 'refused':
      if (!signer || !(await addEvent(edb, flow.id, { key: `signer:${signer.sign_order}:refused`, kind: 'refused', order: signer.sign_order, detail: { reason: event.reason ?? '' } }))) return false;
      if (!running) return false;
      await setSigner(edb, flow.id, signer.sign_order, { state: 'Refuse', signed_time: now, reason: event.reason });
      await setFlow(edb, flow.id, { state: 'Refuse', finished_time: now });
      await writeFlowOnRecord(edb, db, engineCode, flow, 'Refuse');
      return false;
    case 'revoked':
      if (!(await addEvent(edb, flow.id, { key: 'flow:revoked', kind: 'revoked' })) || !running) return false;
      await setFlow(edb, flow.id, { state: 'Revoke', finished_time: now });
      await writeFlowOnRecord(edb, db, engineCode, flow, 'Revoke');
      return false;
    case 'finished': {
      if (!running || !stored || !(await addEvent(edb, flow.id, { key: 'flow:finished', kind: 'finished' }))) return false;
      // The provider says every signature is in: a step whose own callback was lost is complete too.
      for (const s of signers) if (s.state !== 'Complete') await setSigner(edb, flow.id, s.sign_order, { state: 'Complete', signed_time: s.signed_time ?? now });
      const name = fileNameOf(await titleOf(edb, flow), '（已签署）');
      await recordFileRow(edb, stored, name, flow.initiator);
      await setFlow(edb, flow.id, { state: 'Finish', signed_file_id: stored.id, finished_time: now });
      await writeFlowOnRecord(edb, db, engineCode, flow, 'Finish', { id: stored.id, name, size: stored.size });
      return true;
    }
    default:
      return false;
  }
}

/** The flow's title: its document's name (without the extension). */
async function titleOf(edb: EngineExecutor, flow: FlowRow): Promise<string> {
  const doc = flow.document_file_id ? await edb.selectFrom('files').select('name').where('id', '=', flow.document_file_id).executeTakeFirst() : undefined;
  return (doc?.name ?? '').replace(/\.pdf$/i, '') || '电子签署';
}
