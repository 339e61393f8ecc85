import type { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { BoardDefinition } from '@tritium/shared/report/index';
import { AppError } from '../../lib/app-error.ts';
import { canAdministerApp } from '../function-node/function-node.policy.ts';
import { engineOf, getNodeOrThrow, viewerOf, type NodeContext } from '../function-node/node-context.ts';

// The board of a report (220) or dashboard (270) node (issue 22; docs/decisions/0044): whoever may open the node reads
// it; the app's administrators change it. Its numbers are read widget by widget (report-data.service), each within the
// reader's own rights on the widget's form.

const BOARD_NODE_TYPES: readonly number[] = [FunctionNodeType.ReportModule, FunctionNodeType.DashBoardModule];

async function boardNodeOf(ctx: NodeContext, code: string) {
  const edb = engineOf(ctx);
  const viewer = await viewerOf(edb, ctx);
  const { view, node } = await getNodeOrThrow(edb, viewer, code);
  if (!BOARD_NODE_TYPES.includes(node.node_type)) throw new AppError('ReportNotBoardNode', { detail: { code } });
  return { edb, node, canDesign: canAdministerApp(viewer, view.permissionOf(view.app.code)) };
}

export async function loadBoard(ctx: NodeContext, code: string): Promise<contracts.BoardDto> {
  const { edb, node, canDesign } = await boardNodeOf(ctx, code);
  const row = await edb.selectFrom('boards').select(['definition', 'modified_time']).where('node_code', '=', node.code).executeTakeFirst();
  return {
    code: node.code,
    displayName: node.display_name,
    nodeType: node.node_type,
    appCode: node.app_code,
    definition: BoardDefinition.parse(row?.definition ?? {}),
    canDesign,
    modifiedTime: row ? new Date(row.modified_time).toISOString() : null,
  };
}

export async function saveBoard(ctx: NodeContext, body: { code: string; definition: BoardDefinition }): Promise<contracts.BoardDto> {
  const { edb, node, canDesign } = await boardNodeOf(ctx, body.code);
  if (!canDesign) throw new AppError('ReportDesignDenied');
  const definition = JSON.stringify(body.definition);
  await edb
    .insertInto('boards')
    .values({ node_code: node.code, definition, modified_by: ctx.userId })
    .onConflict((oc) => oc.column('node_code').doUpdateSet({ definition, modified_by: ctx.userId, modified_time: new Date() }))
    .execute();
  return loadBoard(ctx, body.code);
}
