import type { contracts } from '@tritium/shared';
import { findFiles } from '../files/files.repo.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { eventsOf, signersOf, type FlowRow } from './esign-flows.repo.ts';

// A flow as its record's readers see it: a signer's signing link only for that signer while it is their turn, mobile
// numbers masked, the trail with the signers' names.

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
export const maskMobile = (m: string) => (m.length >= 7 ? `${m.slice(0, 3)}****${m.slice(-4)}` : '****');

export async function presentFlow(edb: EngineExecutor, flow: FlowRow, viewerId: string): Promise<contracts.ESignFlowDto> {
  const [signers, events, files, initiator] = await Promise.all([
    signersOf(edb, flow.id),
    eventsOf(edb, flow.id),
    findFiles(edb, [flow.document_file_id, flow.signed_file_id].filter((id): id is string => !!id)),
    edb.selectFrom('org_users').select('name').where('id', '=', flow.initiator).executeTakeFirst(),
  ]);
  const file = (id: string | null) => {
    const row = id ? files.find((f) => f.id === id) : undefined;
    return row ? { id: row.id, name: row.name, size: Number(row.size) } : null;
  };
  const running = flow.state === 'Running';
  return {
    flowId: flow.id,
    provider: flow.template_code as 'esign-tsign' | 'esign-fdd',
    state: flow.state,
    schemaCode: flow.schema_code,
    objectId: flow.object_id,
    controlCode: flow.control_code,
    initiator: { userId: flow.initiator, name: initiator?.name ?? '' },
    document: file(flow.document_file_id),
    signed: file(flow.signed_file_id),
    createdTime: iso(flow.created_time)!,
    finishedTime: iso(flow.finished_time),
    signers: signers.map((s) => ({
      order: s.sign_order,
      userId: s.user_id,
      name: s.name,
      mobile: maskMobile(s.mobile),
      forOrganization: s.for_organization,
      state: s.state,
      signUrl: running && s.user_id === viewerId && (s.state === 'Signing' || s.state === 'WaitForApproval') ? s.sign_url : null,
      startedTime: iso(s.started_time),
      signedTime: iso(s.signed_time),
      reason: s.reason,
    })),
    events: events.map((e) => ({
      time: iso(e.time)!,
      kind: e.kind,
      order: e.sign_order,
      name: e.sign_order == null ? null : (signers.find((s) => s.sign_order === e.sign_order)?.name ?? null),
      reason: typeof e.detail?.reason === 'string' ? e.detail.reason : null,
    })),
    canRevoke: running && flow.initiator === viewerId,
  };
}
