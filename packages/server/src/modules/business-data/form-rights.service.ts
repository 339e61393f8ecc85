import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { presentRights } from '../permission/form-rights.ts';
import { getRuntimeFormOrThrow, runtimeFormFor } from './runtime-form.ts';

// POST /v1/form/permission/mine (docs/decisions/0037): what the caller may do with a form's records — the buttons the
// screens show follow it. With `userId`, the form's app administrators preview another member's rights ("preview as").

export async function formRightsOf(ctx: NodeContext, body: { schemaCode: string; userId?: string }): Promise<contracts.FormRightsResult> {
  const edb = engineOf(ctx);
  const mine = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  if (!body.userId || body.userId === ctx.userId) return presentRights(mine.node.code, mine.rights);
  if (!mine.isAppAdmin) throw new AppError('FunctionNodeForbidden', { detail: { appCode: mine.node.app_code } });
  const user = await edb.selectFrom('org_users').select(['id', 'auth_type']).where('id', '=', body.userId).executeTakeFirst();
  if (!user) throw new AppError('UnitNotFound', { detail: { userId: body.userId } });
  const theirs = await runtimeFormFor(edb, await viewerOf(edb, { userId: user.id, authType: user.auth_type }), body.schemaCode);
  return presentRights(theirs.node.code, theirs.rights);
}
