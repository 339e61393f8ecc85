import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { contracts } from '@tritium/shared';
import type { z } from 'zod';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { assertEngineUsable } from '../engine/engine-state.ts';
import { findEngine } from '../engine/engine.repo.ts';
import type { FileStore } from '../files/file-store.ts';
import { insertFile } from '../files/files.repo.ts';
import { storageKeyOf } from '../files/storage-key.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { assertCan } from '../permission/form-rights.ts';
import { assertMayEditAll } from './record-policy.ts';
import { getRuntimeFormOrThrow } from './runtime-form.ts';
import { findSignLink, insertSignLink, markSigned, type SignLinkRow } from './phone-sign.repo.ts';

// Signing on the phone (docs/decisions/0114): one-use links, bound to one hand-sign field, stored hashed.

/** The web page a link opens (packages/web features/entry, route sign/:token). */
export const SIGN_PATH = '/entry/sign/';
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SIGNATURE_NAME = 'signature.png';

export const hashSignToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A link that can still be signed; otherwise why not (unknown, used, expired). */
function assertSignable(row: SignLinkRow | undefined, now = new Date()): asserts row is SignLinkRow {
  if (!row) throw new AppError('SignLinkNotFound');
  if (row.used_time) throw new AppError('SignLinkUsed');
  if (new Date(row.expires_time).getTime() <= now.getTime()) throw new AppError('SignLinkExpired');
}

/** A member who may change the field now (of that record, or of a new one) gets a link for it. */
export async function createSignLink(ctx: NodeContext, body: z.output<typeof contracts.CreateSignLinkBody>): Promise<z.infer<typeof contracts.CreatedSignLink>> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const field = form.fields.find((f) => f.code === body.controlCode && f.type.key === 'handSign');
  if (!field) throw new AppError('BizPropertyNotFound', { detail: { controlCode: body.controlCode } });
  if (form.rights.fields.has(field.code)) throw new AppError('SignFieldNotEditable', { detail: { controlCode: field.code } });
  let recordTitle: string | null = null;
  if (body.objectId) {
    const [row] = await assertMayEditAll(edb, form, [body.objectId], ctx.userId);
    recordTitle = String(row.Name ?? '') || null;
  } else assertCan(form.rights, 'create');
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + contracts.SIGN_LINK_MINUTES * 60_000);
  await insertSignLink(ctx.db, {
    id: newId(),
    engine_code: ctx.engineCode,
    token_hash: hashSignToken(token),
    created_by: ctx.userId,
    schema_code: form.node.code,
    control_code: field.code,
    object_id: body.objectId ?? null,
    form_name: form.definition.attributes.displayName || form.node.display_name,
    field_name: typeof field.options.displayName === 'string' && field.options.displayName ? field.options.displayName : field.code,
    record_title: recordTitle,
    expires_time: expires,
  });
  return { token, link: `${SIGN_PATH}${token}`, expiresTime: expires.toISOString() };
}

async function usableEngine(db: Db, engineCode: string) {
  const engine = await findEngine(db, engineCode);
  if (!engine) throw new AppError('SignLinkNotFound');
  assertEngineUsable(engine);
  return engine;
}

/** What the phone shows: whose signature is asked, for which form, field and record. */
export async function signLinkInfo(db: Db, token: string): Promise<z.infer<typeof contracts.SignLinkInfo>> {
  const row = await findSignLink(db, hashSignToken(token));
  assertSignable(row);
  const engine = await usableEngine(db, row.engine_code);
  const requester = await engineDb(db, row.engine_code).selectFrom('org_users').select('name').where('id', '=', row.created_by).executeTakeFirst();
  return {
    engineName: engine.engine_name,
    requesterName: requester?.name ?? null,
    formName: row.form_name,
    fieldName: row.field_name,
    recordTitle: row.record_title,
    expiresTime: new Date(row.expires_time).toISOString(),
  };
}

/** The PNG's bytes, or 250204 when the data URL holds anything else. */
function pngOf(dataUrl: string): Buffer {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length <= PNG_MAGIC.length || !bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) throw new AppError('SignatureInvalid');
  if (bytes.length > contracts.SIGNATURE_MAX_BYTES) throw new AppError('SignatureInvalid', { detail: { maxBytes: contracts.SIGNATURE_MAX_BYTES } });
  return bytes;
}

/**
 * The phone's signature becomes a pending handSign file of the requester (as if they had drawn it), and the link is
 * used, in one transaction with the link held: two phones on one link sign once.
 */
export async function submitSignature(db: Db, store: FileStore, body: z.output<typeof contracts.SubmitSignatureBody>): Promise<{ signed: true }> {
  const bytes = pngOf(body.signature);
  const hash = hashSignToken(body.token);
  assertSignable(await findSignLink(db, hash));
  let storedKey: string | undefined;
  try {
    await db.transaction().execute(async (trx) => {
      const row = await findSignLink(trx, hash, true);
      assertSignable(row);
      await usableEngine(trx, row.engine_code);
      const id = newId();
      const key = storageKeyOf(row.engine_code, id);
      const { size } = await store.put(key, Readable.from([bytes]), { maxBytes: contracts.SIGNATURE_MAX_BYTES });
      storedKey = key;
      const edb = engineDb(trx as unknown as Db, row.engine_code);
      await insertFile(edb, { id, scene: 'handSign', name: SIGNATURE_NAME, size, content_type: 'image/png', storage_key: key, created_by: row.created_by });
      await markSigned(trx, row.id, { id, name: SIGNATURE_NAME, size, contentType: 'image/png' });
    });
  } catch (error) {
    if (storedKey) await store.delete(storedKey);
    throw error;
  }
  return { signed: true };
}

/** The requester's view of their link (another member's, or another engine's, is unknown). */
export async function signLinkState(ctx: NodeContext, token: string): Promise<z.infer<typeof contracts.SignLinkStateResult>> {
  const row = await findSignLink(ctx.db, hashSignToken(token));
  if (!row || row.engine_code !== ctx.engineCode || row.created_by !== ctx.userId) throw new AppError('SignLinkNotFound');
  if (row.used_time && row.file) return { state: 'signed', file: row.file };
  return { state: new Date(row.expires_time).getTime() <= Date.now() ? 'expired' : 'waiting', file: null };
}
