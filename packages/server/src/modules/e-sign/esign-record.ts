import { UserAuthType } from '@tritium/shared/constants/org';
import type { Db } from '../../db/types.ts';
import { presentValues } from '../business-data/record.presenter.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { formOfNode } from '../business-data/runtime-form.ts';
import { setClaim } from '../files/files.repo.ts';
import { findNode, type EngineExecutor } from '../function-node/function-node.repo.ts';
import { PDF_TYPE } from './esign-document.ts';
import type { FlowRow } from './esign-flows.repo.ts';

// The flow on its record (docs/decisions/0123, e-signature): the e-sign control's value {flowId, state} and, when the
// flow finishes, the signed PDF — in the attachment control the e-sign control names, else kept with the e-sign
// control itself (claimed to the record, so whoever reads the record reads it). Written through business data's
// system write path (a business rule's standing: no field rights of the initiator's are asked), as the initiator.

export async function writeFlowOnRecord(edb: EngineExecutor, db: Db, engineCode: string, flow: Pick<FlowRow, 'id' | 'schema_code' | 'object_id' | 'control_code' | 'initiator'>, state: FlowRow['state'], signed?: { id: string; name: string; size: number }): Promise<void> {
  const node = await findNode(edb, flow.schema_code);
  // A form or record removed meanwhile keeps its flow's trail; there is nothing left to write on.
  if (!node) return;
  const user = await edb.selectFrom('org_users').select('auth_type').where('id', '=', flow.initiator).executeTakeFirst();
  const authType = user?.auth_type ?? UserAuthType.Personal;
  const form = await formOfNode(edb, node, { userId: flow.initiator, authType, unitIds: [flow.initiator] }, true);
  const row = await findRecord(edb, form, flow.object_id, { forUpdate: true });
  if (!row) return;
  const values: Record<string, unknown> = { [flow.control_code]: { flowId: flow.id, state } };
  if (signed) {
    const control = form.fields.find((f) => f.code === flow.control_code);
    const attachmentCode = typeof control?.options.attachmentCode === 'string' ? control.options.attachmentCode : null;
    const attachment = attachmentCode ? form.fields.find((f) => f.code === attachmentCode && f.type.key === 'attachment') : undefined;
    if (attachment) {
      const current = presentValues(form.fields, row)[attachment.code];
      values[attachment.code] = [...(Array.isArray(current) ? current : []), { id: signed.id, name: signed.name, size: signed.size, contentType: PDF_TYPE }];
    } else {
      await setClaim(edb, [signed.id], { schemaCode: flow.schema_code, objectId: flow.object_id, controlCode: flow.control_code });
    }
  }
  await saveRecordIn(edb, { db, engineCode, userId: flow.initiator, authType }, form, { objectId: flow.object_id, submit: false, values }, { editRight: 'businessRule', locked: row });
}
