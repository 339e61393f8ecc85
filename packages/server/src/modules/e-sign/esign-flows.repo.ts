import type { Selectable } from 'kysely';
import type { ESignEventTable, ESignFlowTable, ESignSignerTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// esign_flows, esign_signers and esign_events rows (docs/decisions/0123, e-signature).

export type FlowRow = Selectable<ESignFlowTable>;
export type SignerRow = Selectable<ESignSignerTable>;
export type EventRow = Selectable<ESignEventTable>;
export type FlowState = FlowRow['state'];

export function findFlow(edb: EngineExecutor, id: string, options: { forUpdate?: boolean } = {}): Promise<FlowRow | undefined> {
  let q = edb.selectFrom('esign_flows').selectAll().where('id', '=', id);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function findFlowOfProvider(edb: EngineExecutor, templateCode: string, providerFlowId: string): Promise<FlowRow | undefined> {
  return edb.selectFrom('esign_flows').selectAll().where('template_code', '=', templateCode).where('provider_flow_id', '=', providerFlowId).executeTakeFirst();
}

/** The record's control's latest flow. */
export function latestFlowOf(edb: EngineExecutor, record: { schemaCode: string; objectId: string; controlCode: string }): Promise<FlowRow | undefined> {
  return edb
    .selectFrom('esign_flows')
    .selectAll()
    .where('schema_code', '=', record.schemaCode)
    .where('object_id', '=', record.objectId)
    .where('control_code', '=', record.controlCode)
    .orderBy('created_time', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function signersOf(edb: EngineExecutor, flowId: string): Promise<SignerRow[]> {
  return edb.selectFrom('esign_signers').selectAll().where('flow_id', '=', flowId).orderBy('sign_order').execute();
}

export function eventsOf(edb: EngineExecutor, flowId: string): Promise<EventRow[]> {
  return edb.selectFrom('esign_events').selectAll().where('flow_id', '=', flowId).orderBy('id').execute();
}

/** Adds an event to the trail once per key; answers whether it was new (a repeated callback is not). */
export async function addEvent(edb: EngineExecutor, flowId: string, event: { key: string; kind: string; order?: number | null; detail?: Record<string, unknown> }): Promise<boolean> {
  const row = await edb
    .insertInto('esign_events')
    .values({ flow_id: flowId, event_key: event.key, kind: event.kind, sign_order: event.order ?? null, detail: JSON.stringify(event.detail ?? {}) })
    .onConflict((oc) => oc.constraint('esign_events_key').doNothing())
    .returning('flow_id')
    .executeTakeFirst();
  return !!row;
}

export function setSigner(edb: EngineExecutor, flowId: string, order: number, values: Partial<Pick<SignerRow, 'state' | 'sign_url' | 'started_time' | 'signed_time' | 'reason'>>) {
  return edb.updateTable('esign_signers').set(values).where('flow_id', '=', flowId).where('sign_order', '=', order).execute();
}

export function setFlow(edb: EngineExecutor, flowId: string, values: Partial<Pick<FlowRow, 'state' | 'signed_file_id' | 'finished_time'>>) {
  return edb.updateTable('esign_flows').set({ ...values, modified_time: new Date() }).where('id', '=', flowId).execute();
}
