import { z } from 'zod';
import { ESIGN_FLOW_STATES, SIGNER_STATES } from '../../constants/tasks.ts';
import { codeSchema } from '../../validation/zod.ts';

// E-signature flows of the e-sign control (issue 44; docs/decisions/0123, e-signature): a print template's PDF of a
// record sent to signers in order through the engine's installed e-sign provider (e签宝 or 法大大).

/** At most this many signers in one flow. */
export const ESIGN_MAX_SIGNERS = 10;

export const ESignFlowState = z.enum(ESIGN_FLOW_STATES);
export const SignerState = z.enum(SIGNER_STATES);

const ObjectId = z.string().trim().regex(/^[0-9a-f-]{36}$/i, '数据 ID 格式不正确');
const FlowId = z.string().trim().regex(/^[0-9a-f-]{36}$/i, '签署流程 ID 格式不正确');

export const ESignSignerInput = z.strictObject({
  userId: z.string().trim().min(1).max(64),
  /** Signs for the organisation: the provider asks the organisation's seal approval after the signature (WaitForApproval). */
  forOrganization: z.boolean().default(false),
});

export const ESignStartBody = z.strictObject({
  schemaCode: codeSchema,
  objectId: ObjectId,
  controlCode: codeSchema,
  /** In signing order. */
  signers: z.array(ESignSignerInput).min(1, '请至少选择一位签署人').max(ESIGN_MAX_SIGNERS, `签署人最多 ${ESIGN_MAX_SIGNERS} 位`),
});

export const ESignFlowQuery = z.strictObject({ schemaCode: codeSchema, objectId: ObjectId, controlCode: codeSchema });
export const ESignFlowIdBody = z.strictObject({ flowId: FlowId });

export const ESignSignerDto = z.object({
  order: z.number().int(),
  userId: z.string(),
  name: z.string(),
  /** Masked (138****0000): the full number is the provider's business. */
  mobile: z.string(),
  forOrganization: z.boolean(),
  state: SignerState,
  /** The provider's signing page: only for the signer themself, and only while it is their turn. */
  signUrl: z.string().nullable(),
  startedTime: z.string().nullable(),
  signedTime: z.string().nullable(),
  reason: z.string().nullable(),
});

export const ESignEventDto = z.object({
  time: z.string(),
  /** started, signed, awaitingApproval, refused, finished, revoked. */
  kind: z.string(),
  order: z.number().int().nullable(),
  /** The signer's name for a signer's event. */
  name: z.string().nullable(),
  reason: z.string().nullable(),
});

export const ESignFileDto = z.object({ id: z.string(), name: z.string(), size: z.number() });

export const ESignFlowDto = z.object({
  flowId: z.string(),
  provider: z.enum(['esign-tsign', 'esign-fdd']),
  state: ESignFlowState,
  schemaCode: z.string(),
  objectId: z.string(),
  controlCode: z.string(),
  initiator: z.object({ userId: z.string(), name: z.string() }),
  document: ESignFileDto.nullable(),
  signed: ESignFileDto.nullable(),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
  signers: z.array(ESignSignerDto),
  events: z.array(ESignEventDto),
  /** What the caller may do now. */
  canRevoke: z.boolean(),
});
export type ESignFlowDto = z.infer<typeof ESignFlowDto>;

/** The flow of a record's e-sign control (the latest), and whether a provider is installed at all. */
export const ESignFlowResult = z.object({
  installed: z.boolean(),
  providerName: z.string().nullable(),
  canStart: z.boolean(),
  flow: ESignFlowDto.nullable(),
});
export type ESignFlowResult = z.infer<typeof ESignFlowResult>;
