import { contracts } from '@tritium/shared';
import { controlDisplayText } from '@tritium/shared/controls/index';
import { SHARED_RECORD_PATH } from '@tritium/shared/constants/entry-routes';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { loadData } from '../business-data/record.service.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { unitNamesIn, visibleFields, visibleGrids } from '../business-data/record.presenter.ts';
import { hashPassword, knownEngine, memberContext, newToken, passwordMatches } from './public-access.ts';

// Record share links (issue 19, form scene ExternalShare). A member shares a record they can read; anyone with the
// link sees it read-only, exactly as that member sees it now — their hidden fields and sub-table columns left out,
// their rights read at every visit, so a member who loses the record (or leaves) closes their links. A link has an
// optional expiry and password; revoking it refuses the address from then on (no cache holds it).

type ShareRow = { id: string; token: string; schema_code: string; object_id: string; password_hash: string | null; expires_at: Date | null; created_by: string; created_time: Date; revoked_time: Date | null };

const iso = (d: Date | string) => new Date(d).toISOString();

async function present(edb: EngineExecutor, engineCode: string, rows: ShareRow[]): Promise<contracts.RecordShareDto[]> {
  const ids = [...new Set(rows.map((r) => r.created_by))];
  const names = new Map(ids.length ? (await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', ids).execute()).map((u) => [u.id, u.name]) : []);
  return rows.map((r) => ({
    id: r.id,
    path: `${SHARED_RECORD_PATH}/${encodeURIComponent(engineCode)}/${r.token}`,
    hasPassword: r.password_hash !== null,
    expiresAt: r.expires_at ? iso(r.expires_at) : null,
    createdBy: r.created_by,
    createdByName: names.get(r.created_by) ?? '',
    createdTime: iso(r.created_time),
  }));
}

/** The record as the caller reads it (refused as not found when they cannot), with its form's code. */
async function readable(ctx: NodeContext, schemaCode: string, objectId: string) {
  const data = await loadData(ctx, { schemaCode, objectId });
  return { edb: engineOf(ctx), schemaCode: data.schemaCode };
}

export async function createShare(ctx: NodeContext, body: contracts.RecordShareCreateBody & { expiresInHours: number | null; password: string | null }, now = new Date()): Promise<{ share: contracts.RecordShareDto }> {
  const { edb, schemaCode } = await readable(ctx, body.schemaCode, body.objectId);
  const row = (await edb
    .insertInto('record_share_links')
    .values({
      id: newId(),
      token: newToken(),
      schema_code: schemaCode,
      object_id: body.objectId,
      password_hash: body.password === null ? null : await hashPassword(body.password),
      expires_at: body.expiresInHours === null ? null : new Date(now.getTime() + body.expiresInHours * 3_600_000),
      created_by: ctx.userId,
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as ShareRow;
  return { share: (await present(edb, ctx.engineCode, [row]))[0]! };
}

const isAdministrator = (ctx: NodeContext) => ctx.authType === UserAuthType.Administrator;

/** The record's open links: the caller's own (an engine administrator sees everyone's). */
export async function listShares(ctx: NodeContext, body: { schemaCode: string; objectId: string }, now = new Date()): Promise<contracts.RecordShareListResult> {
  const { edb, schemaCode } = await readable(ctx, body.schemaCode, body.objectId);
  let q = edb
    .selectFrom('record_share_links')
    .selectAll()
    .where('schema_code', '=', schemaCode)
    .where('object_id', '=', body.objectId)
    .where('revoked_time', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (!isAdministrator(ctx)) q = q.where('created_by', '=', ctx.userId);
  return { shares: await present(edb, ctx.engineCode, (await q.orderBy('created_time', 'desc').execute()) as ShareRow[]) };
}

/** Revokes a link: its creator or an engine administrator; anyone else is answered as if it did not exist. */
export async function revokeShare(ctx: NodeContext, id: string, now = new Date()): Promise<{ revoked: boolean }> {
  let q = engineOf(ctx).updateTable('record_share_links').set({ revoked_time: now }).where('id', '=', id).where('revoked_time', 'is', null);
  if (!isAdministrator(ctx)) q = q.where('created_by', '=', ctx.userId);
  const r = await q.executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new AppError('PublicLinkNotFound');
  return { revoked: true };
}

/** What a visitor with the link sees: the record read-only as its sharer reads it now, as display texts. */
export async function sharedRecord(db: Db, query: { engineCode: string; token: string }, password: string | undefined, now = new Date()): Promise<contracts.SharedRecordResult> {
  const edb = await knownEngine(db, query.engineCode);
  const link = (await edb.selectFrom('record_share_links').selectAll().where('token', '=', query.token).executeTakeFirst()) as ShareRow | undefined;
  if (!link || link.revoked_time) throw new AppError('PublicLinkNotFound');
  if (link.expires_at && new Date(link.expires_at) <= now) throw new AppError('ShareLinkExpired');
  const displayName = (await new FormCache(edb).get(link.schema_code))?.definition.attributes.displayName ?? '';
  if (link.password_hash && !(await passwordMatches(link.password_hash, password))) return { displayName, needsPassword: true, title: '', fields: [], tables: [] };
  const sharer = await memberContext(db, edb, query.engineCode, link.created_by, 'PublicLinkNotFound');
  const [form, data] = await Promise.all([
    getRuntimeFormOrThrow(edb, sharer, link.schema_code),
    loadData(sharer, { schemaCode: link.schema_code, objectId: link.object_id }),
  ]).catch((error: unknown) => {
    // The sharer can no longer read the record (or it is gone): the link no longer opens anything.
    if (error instanceof AppError) throw new AppError('PublicLinkNotFound');
    throw error;
  });
  const unitName = await unitNamesIn(edb, [data.values, data.children]);
  const text = (field: { code: string; type: { key: string }; options: Record<string, unknown> }, value: unknown) => controlDisplayText({ type: field.type.key, options: field.options }, value, { unitName });
  const title = (f: { code: string; options: Record<string, unknown> }) => String(f.options.displayName ?? f.code);
  return {
    displayName,
    needsPassword: false,
    title: data.system.Name || data.system.SeqNo || '',
    fields: visibleFields(form)
      .filter((f) => f.code in data.values)
      .map((f) => ({ code: f.code, displayName: title(f), text: text(f, data.values[f.code]) })),
    tables: visibleGrids(form)
      .filter((g) => Array.isArray(data.children[g.code]))
      .map((g) => ({
        code: g.code,
        displayName: title(g),
        columns: g.fields.map((f) => ({ code: f.code, displayName: title(f) })),
        rows: (data.children[g.code] as Record<string, unknown>[]).map((row) => g.fields.map((f) => text(f, row[f.code]))),
      })),
  };
}
