import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type DataField, type RuntimeForm } from '../business-data/runtime-form.ts';
import { canReadRecord } from '../business-data/record-policy.ts';
import { findRecord } from '../business-data/records.repo.ts';
import type { FileStore } from '../files/file-store.ts';
import { findFiles, setClaim } from '../files/files.repo.ts';
import { loadInstalledPlugin, requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { assertOwnPendingFile, faceImageOf } from './face-image.ts';
import { FACE_CHECK_SCHEMA, facePhotoFile } from './face-photos.ts';
import { compareFaces, type FaceProviderDeps } from './face-provider.ts';

// The check behind the face-recognition control (docs/decisions/0123 "Face check"): a photo the caller uploaded is
// compared with the stored photo of the person the control asks for (the caller, or with match "anyUser" the person
// chosen), and a row keeps the outcome. A save sets the control's value only by presenting a passing check's id: the
// caller's own, for this form and control, at most FACE_CHECK_FRESH_MINUTES old, not already given to another record.

export interface FaceCheckDeps extends FaceProviderDeps {
  store: FileStore;
}

const FACE_PLUGIN = 'face';
const nameOf = (field: DataField) => String(field.options.displayName ?? '') || field.code;

function faceFieldOrThrow(form: RuntimeForm, controlCode: string): DataField {
  const field = form.fields.find((f) => f.code === controlCode && f.type.key === 'faceRecognition');
  if (!field) throw new AppError('FaceControlNotFound', { detail: { code: controlCode } });
  return field;
}

function thresholdOf(settings: Record<string, unknown>): number {
  const value = Number(settings.threshold);
  return settings.threshold !== undefined && settings.threshold !== '' && Number.isFinite(value) && value >= 0 && value <= 100 ? value : contracts.FACE_DEFAULT_THRESHOLD;
}

/** POST /v1/facecheck/compare and the plugin's `compare` method. Runs outside a transaction: the provider is called out. */
export async function compareForControl(ctx: NodeContext, body: contracts.FaceCompareBody, deps: FaceCheckDeps): Promise<contracts.FaceCheckResult> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const field = faceFieldOrThrow(form, body.controlCode);
  const plugin = await requireInstalledPlugin(edb, FACE_PLUGIN);
  const anyUser = field.options.match === 'anyUser';
  if (!anyUser && body.userId && body.userId !== ctx.userId) throw new AppError('FaceCheckNotYours');
  const userId = anyUser ? body.userId : ctx.userId;
  if (!userId) throw new AppError('FacePersonRequired');
  const user = await edb.selectFrom('org_users').select(['id', 'name']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('FacePersonNotFound');
  const [upload] = await findFiles(edb, [body.fileId]);
  const photo = await faceImageOf(deps.store, assertOwnPendingFile(upload, ctx.userId, body.fileId));
  const referenceFile = await facePhotoFile(edb, user.id);
  if (!referenceFile) throw new AppError('FacePhotoMissing', { detail: { name: user.name } });
  const reference = await faceImageOf(deps.store, referenceFile);
  const comparison = await compareFaces(plugin, photo, reference, deps);
  const threshold = thresholdOf(plugin.settings);
  const score = Math.round(comparison.score * 100) / 100;
  const matched = score >= threshold;
  const checkId = newId();
  await ctx.db.transaction().execute(async (trx) => {
    const tx = engineOf({ db: trx as unknown as NodeContext['db'], engineCode: ctx.engineCode });
    // The photo becomes the check's: no record or other check can take it.
    await setClaim(tx, [body.fileId], { schemaCode: FACE_CHECK_SCHEMA, objectId: checkId, controlCode: body.controlCode });
    await tx
      .insertInto('face_checks')
      .values({
        id: checkId,
        schema_code: form.node.code,
        control_code: field.code,
        user_id: user.id,
        matched,
        score,
        threshold,
        photo_file_id: body.fileId,
        provider_request_id: comparison.requestId,
        checked_by: ctx.userId,
        checked_time: new Date(),
      })
      .execute();
  });
  return { checkId, matched, score, threshold, userId: user.id, userName: user.name };
}

/** The presented-value resolver of the face-recognition control (business-data/presented-values-port.ts). */
export async function resolveFaceValue(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, field: DataField, presented: unknown, objectId: string): Promise<string> {
  const refused = () => new AppError('FaceCheckRequired', { detail: { name: nameOf(field), issues: [{ path: `values.${field.code}`, message: '须通过人脸比对' }] } });
  if (typeof presented !== 'string') throw refused();
  const row = await edb.selectFrom('face_checks').selectAll().where('id', '=', presented).forUpdate().executeTakeFirst();
  const fresh = row && Date.now() - new Date(row.checked_time).getTime() <= contracts.FACE_CHECK_FRESH_MINUTES * 60_000;
  const usable =
    row && fresh && row.matched && row.schema_code === form.node.code && row.control_code === field.code && row.checked_by === ctx.userId && (row.object_id === null || row.object_id === objectId);
  if (!usable) throw refused();
  await edb.updateTable('face_checks').set({ object_id: objectId }).where('id', '=', row.id).execute();
  return row.user_id;
}

/** GET /v1/facecheck/record: the latest check a record's value came from, for whoever may read the record. */
export async function checkOfRecord(ctx: NodeContext, query: { schemaCode: string; objectId: string; controlCode: string }): Promise<contracts.FaceRecordResult> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, query.schemaCode);
  faceFieldOrThrow(form, query.controlCode);
  const record = await findRecord(edb, form, query.objectId);
  if (!record || !(await canReadRecord(edb, form, record, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId: query.objectId } });
  const row = await edb
    .selectFrom('face_checks as c')
    .leftJoin('org_users as u', 'u.id', 'c.user_id')
    .select(['c.user_id', 'u.name', 'c.score', 'c.matched', 'c.checked_time'])
    .where('c.schema_code', '=', form.node.code)
    .where('c.object_id', '=', query.objectId)
    .where('c.control_code', '=', query.controlCode)
    .orderBy('c.checked_time', 'desc')
    .executeTakeFirst();
  if (!row || row.user_id !== record[query.controlCode]) return { check: null };
  return { check: { userId: row.user_id, userName: row.name ?? '', score: Number(row.score), matched: row.matched, checkedTime: new Date(row.checked_time).toISOString() } };
}

/** GET /v1/facecheck/status: whether a check can be made now (the plugin installed, the caller's photo stored). */
export async function faceStatus(ctx: NodeContext): Promise<contracts.FaceStatusResult> {
  const edb = engineOf(ctx);
  const installed = (await loadInstalledPlugin(edb, FACE_PLUGIN)) !== null;
  const photo = await edb.selectFrom('face_photos').select('user_id').where('user_id', '=', ctx.userId).executeTakeFirst();
  return { installed, hasPhoto: Boolean(photo) };
}
