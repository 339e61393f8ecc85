import { z } from 'zod';
import { SchemaCode } from '../form-design/index.ts';
import { fileRefSchema } from '../../controls/values.ts';

// Signing on the phone (手机签名, docs/decisions/0114): a PC form's hand-sign field asks for a one-use link
// `/entry/sign/<token>`; a phone opens it without signing in, draws and submits; the PC dialog reads the state.

/** How long a link may be used. */
export const SIGN_LINK_MINUTES = 10;
/** The largest signature accepted (the PNG's bytes, before base64). */
export const SIGNATURE_MAX_BYTES = 1024 * 1024;
/** A PNG data URL of at most SIGNATURE_MAX_BYTES (base64 is 4/3 of the bytes). */
const SIGNATURE_MAX_CHARS = 'data:image/png;base64,'.length + Math.ceil(SIGNATURE_MAX_BYTES / 3) * 4;

/** 32 random bytes, base64url (43 characters). */
export const SignLinkToken = z.string().trim().min(1, '缺少签名链接').max(128, '签名链接无效').regex(/^[A-Za-z0-9_-]+$/, '签名链接无效');

/** POST /v1/handsign/qrlink: the field of a saved record, or of a new record being filled (no objectId). */
export const CreateSignLinkBody = z.strictObject({
  schemaCode: SchemaCode,
  controlCode: z.string().trim().min(1).max(63),
  objectId: z.uuid().optional(),
});
export const CreatedSignLink = z.object({ token: z.string(), link: z.string(), expiresTime: z.string() });

export const SignLinkQuery = z.strictObject({ token: SignLinkToken });

/** GET /v1/form/sign/info: whose signature the phone is asked for. */
export const SignLinkInfo = z.object({
  engineName: z.string(),
  requesterName: z.string().nullable(),
  formName: z.string(),
  fieldName: z.string(),
  /** The record's title; null for a record not saved yet. */
  recordTitle: z.string().nullable(),
  expiresTime: z.string(),
});

/** POST /v1/form/sign/submit */
export const SubmitSignatureBody = z.strictObject({
  token: SignLinkToken,
  signature: z
    .string()
    .max(SIGNATURE_MAX_CHARS, '签名图片过大')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, '签名须为 PNG 图片'),
});
export const SubmittedSignature = z.object({ signed: z.literal(true) });

export const SignLinkState = z.enum(['waiting', 'signed', 'expired']);
/** GET /v1/form/sign/state: the requester's view of the link; `file` is the field's value once signed. */
export const SignLinkStateResult = z.object({ state: SignLinkState, file: fileRefSchema.nullable() });
