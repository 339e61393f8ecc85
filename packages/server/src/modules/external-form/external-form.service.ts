import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import { PUBLIC_FORM_PATH } from '@tritium/shared/constants/entry-routes';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { getFormNodeOrThrow } from '../form-design/form-access.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { submitIn, type StartWorkflow } from '../business-data/record.service.ts';
import { hashPassword, knownEngine, memberContext, passwordMatches, renewFormPageToken, saveFormPage } from './public-access.ts';

// Public fill-in links (issue 19, form scene ExternalForm; docs/decisions/0043). The app's administrators set a form's
// link: on or off, an optional password, an expiry, a cap on submissions, and whose the submissions are. A visitor
// with the link fills the form's simple fields without an account; the submission is stored as the link's owner
// (their rights; a workflow form's flow starts), in one transaction with the count it is held to.

const FILLABLE: ReadonlySet<string> = new Set(contracts.PUBLIC_FILL_CONTROL_TYPES);

type LinkRow = { schema_code: string; token: string; enabled: boolean; password_hash: string | null; expires_at: Date | null; max_submissions: number | null; submissions: number; owner_id: string };

/** The form, for a caller who administers its app (who sets its public pages). */
export async function designed(ctx: NodeContext, schemaCode: string) {
  const edb = engineOf(ctx);
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), schemaCode, 'administer');
  return { edb, node };
}

async function present(edb: EngineExecutor, engineCode: string, row: LinkRow | undefined): Promise<contracts.PublicLinkResult> {
  if (!row) return { link: null };
  const owner = await edb.selectFrom('org_users').select('name').where('id', '=', row.owner_id).executeTakeFirst();
  return {
    link: {
      schemaCode: row.schema_code,
      enabled: row.enabled,
      path: `${PUBLIC_FORM_PATH}/${encodeURIComponent(engineCode)}/${row.token}`,
      hasPassword: row.password_hash !== null,
      expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
      maxSubmissions: row.max_submissions,
      submissions: row.submissions,
      ownerId: row.owner_id,
      ownerName: owner?.name ?? '',
    },
  };
}

const linkOf = (edb: EngineExecutor, schemaCode: string) => edb.selectFrom('form_public_links').selectAll().where('schema_code', '=', schemaCode).executeTakeFirst() as Promise<LinkRow | undefined>;

export async function getPublicLink(ctx: NodeContext, schemaCode: string): Promise<contracts.PublicLinkResult> {
  const { edb, node } = await designed(ctx, schemaCode);
  return present(edb, ctx.engineCode, await linkOf(edb, node.code));
}

export async function savePublicLink(ctx: NodeContext, body: contracts.PublicLinkSaveBody & { expiresAt: string | null; maxSubmissions: number | null }): Promise<contracts.PublicLinkResult> {
  const { edb, node } = await designed(ctx, body.schemaCode);
  const owner = await edb.selectFrom('org_users').select(['id', 'state']).where('id', '=', body.ownerId).executeTakeFirst();
  if (!owner || owner.state !== 'active') throw parameterError([{ path: 'ownerId', message: '该成员不存在或已停用' }]);
  const password = body.password === undefined ? undefined : body.password === null ? null : await hashPassword(body.password);
  await saveFormPage(edb, 'form_public_links', { schemaCode: node.code, createdBy: ctx.userId }, { enabled: body.enabled, expires_at: body.expiresAt, max_submissions: body.maxSubmissions, owner_id: owner.id }, password);
  return present(edb, ctx.engineCode, await linkOf(edb, node.code));
}

/** A new token: the old address stops working at once. */
export async function resetPublicLink(ctx: NodeContext, schemaCode: string): Promise<contracts.PublicLinkResult> {
  const { edb, node } = await designed(ctx, schemaCode);
  await renewFormPageToken(edb, 'form_public_links', node.code);
  return present(edb, ctx.engineCode, await linkOf(edb, node.code));
}

/** The link of a token, open now (on, not expired, under its cap): 404 otherwise, whatever the reason, for a visitor. */
async function openLink(edb: EngineExecutor, token: string, now: Date): Promise<LinkRow> {
  const row = (await edb.selectFrom('form_public_links').selectAll().where('token', '=', token).executeTakeFirst()) as LinkRow | undefined;
  if (!row || !row.enabled) throw new AppError('PublicLinkNotFound');
  if (row.expires_at && new Date(row.expires_at) <= now) throw new AppError('PublicLinkClosed');
  if (row.max_submissions !== null && row.submissions >= row.max_submissions) throw new AppError('PublicLinkClosed');
  return row;
}

/**
 * The fields a visitor fills: the simple ones (a choice whose items come from other data needs an account), as the
 * link's owner may write them (hidden and read-only left out), with their published options.
 */
function fillable(form: RuntimeForm): contracts.PublicField[] {
  return form.fields
    .filter((f) => FILLABLE.has(f.type.key) && !form.rights.fields.has(f.code) && f.type.choices?.(f.options as never) !== null)
    .map((f) => ({
      code: f.code,
      type: f.type.key as contracts.PublicField['type'],
      displayName: String(f.options.displayName ?? f.code),
      required: f.options.required === true,
      options: f.options,
    }));
}

export async function publicForm(db: Db, query: { engineCode: string; token: string }, password: string | undefined, now = new Date()): Promise<contracts.PublicFormResult> {
  const edb = await knownEngine(db, query.engineCode);
  const link = await openLink(edb, query.token, now);
  const form = await new FormCache(edb).require(link.schema_code);
  const displayName = form.definition.attributes.displayName;
  if (link.password_hash && !(await passwordMatches(link.password_hash, password))) return { displayName, needsPassword: true, fields: [] };
  const owner = await memberContext(db, edb, query.engineCode, link.owner_id, 'PublicLinkClosed');
  return { displayName, needsPassword: false, fields: fillable(await getRuntimeFormOrThrow(edb, owner, link.schema_code)) };
}

/**
 * A visitor's submission: the link is claimed (its count goes up only while under the cap, in one statement) and the
 * record submitted as the owner, in one transaction — a refused save leaves the count as it was.
 */
export async function submitPublicForm(db: Db, body: contracts.PublicSubmitBody, startWorkflow: StartWorkflow, now = new Date()): Promise<{ submitted: boolean; seqNo: string | null }> {
  const root = await knownEngine(db, body.engineCode);
  const link = await openLink(root, body.token, now);
  if (link.password_hash && !(await passwordMatches(link.password_hash, body.password))) throw new AppError('PublicLinkPassword');
  return db.transaction().execute(async (trx) => {
    const edb = engineDb(trx as unknown as Db, body.engineCode);
    const claimed = await edb
      .updateTable('form_public_links')
      .set({ submissions: sql`submissions + 1` })
      .where('token', '=', body.token)
      .where('enabled', '=', true)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) => eb.or([eb('max_submissions', 'is', null), eb('submissions', '<', eb.ref('max_submissions'))]))
      .returning(['schema_code', 'owner_id'])
      .executeTakeFirst();
    if (!claimed) throw new AppError('PublicLinkClosed');
    const owner = await memberContext(trx as unknown as Db, edb, body.engineCode, claimed.owner_id, 'PublicLinkClosed');
    const form = await getRuntimeFormOrThrow(edb, owner, claimed.schema_code);
    const allowed = new Set(fillable(form).map((f) => f.code));
    const unknown = Object.keys(body.values).filter((code) => !allowed.has(code));
    if (unknown.length) throw parameterError(unknown.map((code) => ({ path: `values.${code}`, message: '该字段不能由外部填写' })));
    const saved = await submitIn(edb, owner, form, { submit: true, values: body.values }, startWorkflow);
    return { submitted: true, seqNo: saved.result.seqNo };
  });
}
