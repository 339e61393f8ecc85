import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { loadData } from '../business-data/record.service.ts';
import { visibleFields } from '../business-data/record.presenter.ts';
import { can, presentRights } from '../permission/form-rights.ts';
import { queryRecords } from './query.service.ts';

// "Preview as" (issue 19; docs/decisions/0056): an administrator of the form's app sees the form's list and one record
// exactly as a chosen member reads them. Nothing is computed for the preview: the member's own calls — the list
// (queryRecords) and the record (loadData) — run with a context made for the member, so the policy that answers them
// is the one that answers the member.

export async function previewAs(ctx: NodeContext, body: contracts.FormPreviewBody & { pageSize: number }): Promise<contracts.FormPreviewResult> {
  const edb = engineOf(ctx);
  const mine = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  if (!mine.isAppAdmin) throw new AppError('FunctionNodeForbidden', { detail: { appCode: mine.node.app_code } });
  const user = await edb.selectFrom('org_users').select(['id', 'auth_type']).where('id', '=', body.userId).executeTakeFirst();
  if (!user) throw new AppError('UnitNotFound', { detail: { userId: body.userId } });
  // The member's context: their roles and departments are read for them (viewerOf), no request snapshot is shared.
  const theirs: NodeContext = { db: ctx.db, engineCode: ctx.engineCode, userId: user.id, authType: user.auth_type };
  const form = await getRuntimeFormOrThrow(edb, theirs, body.schemaCode).catch((error: unknown) => {
    if (error instanceof AppError && error.errorName === 'FunctionNodeNotFound') return null;
    throw error;
  });
  if (!form) return { opens: false, rights: null, columns: [], list: [], total: 0, record: null };
  const columns = visibleFields(form).map((f) => ({ code: f.code, displayName: String(f.options.displayName ?? f.code), type: f.type.key, options: f.options }));
  const rights = presentRights(form.node.code, form.rights);
  if (!can(form.rights, 'view')) return { opens: true, rights, columns, list: [], total: 0, record: null };
  const { list, total } = await queryRecords(theirs, { schemaCode: form.node.code, pageIndex: 0, pageSize: body.pageSize });
  const objectId = body.objectId ?? (list[0]?.ObjectId as string | undefined);
  // A record the member may not read is what they would get too: none (their loaddata answers 404).
  const record = objectId
    ? await loadData(theirs, { schemaCode: form.node.code, objectId }).catch((error: unknown) => {
        if (error instanceof AppError && error.errorName === 'BizObjectNotFound') return null;
        throw error;
      })
    : null;
  return { opens: true, rights, columns, list, total, record };
}
