import { sql } from 'kysely';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppError } from '../../lib/app-error.ts';
import { assertCanAdministerApp, type NodeViewer, type Permission } from '../function-node/function-node.policy.ts';
import { getNodeOrThrow } from '../function-node/node-context.ts';
import { nodeReads } from '../function-node/node-reads.ts';
import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';

// Who may design and read which form (docs/decisions/0006 "Authorisation"), built on the function-node policy
// (docs/decisions/0004): a form one may not open does not exist (404 / 230001); designing — loading the draft,
// saving, publishing, indexes, sequence numbers, the designer's checks — needs the form's app administered
// (403 / 230005); the published schema is read by whoever may open the form. A participant of a flow on the form
// opens it too, whatever the function nodes say (docs/decisions/0037, 0111): their to-do must show its record.

/** Node types that have a form: form 200, workflow 210, singleton 240. */
export const FORM_NODE_TYPES: readonly number[] = [FunctionNodeType.FormModule, FunctionNodeType.WorkflowModule, FunctionNodeType.SingletonModule];

export type FormNeed = 'open' | 'administer';

export async function getFormNodeOrThrow(edb: EngineExecutor, viewer: NodeViewer, schemaCode: string, need: FormNeed): Promise<NodeRow> {
  if (need === 'open') {
    const { node } = await openFormNodeOrThrow(edb, viewer, schemaCode);
    if (!FORM_NODE_TYPES.includes(node.node_type)) throw new AppError('FormNodeNotForm', { detail: { code: node.code, nodeType: node.node_type } });
    return node;
  }
  const { view, node } = await getNodeOrThrow(edb, viewer, schemaCode);
  assertCanAdministerApp(viewer, view.permissionOf(view.app.code), view.app.code);
  if (!FORM_NODE_TYPES.includes(node.node_type)) throw new AppError('FormNodeNotForm', { detail: { code: node.code, nodeType: node.node_type } });
  return node;
}

/** A node opened for a viewer: its app's permission, and whether only a flow of theirs on it lets them in. */
export interface OpenedNode {
  node: NodeRow;
  appPermission: Permission;
  asParticipant: boolean;
}

/**
 * A node the viewer may open (getNodeOrThrow), or a form node of a flow they take part in: a work item of theirs —
 * to do, done or to read — names an instance of it. Otherwise 404, as for any node one may not open.
 */
export async function openFormNodeOrThrow(edb: EngineExecutor, viewer: NodeViewer, schemaCode: string): Promise<OpenedNode> {
  try {
    const { view, node } = await getNodeOrThrow(edb, viewer, schemaCode);
    return { node, appPermission: view.permissionOf(view.app.code), asParticipant: false };
  } catch (error) {
    if (!(error instanceof AppError && error.errorName === 'FunctionNodeNotFound')) throw error;
    const node = await nodeReads(edb, viewer).findNode(schemaCode);
    if (!node || !FORM_NODE_TYPES.includes(node.node_type) || !(await isFlowParticipant(edb, node.code, viewer.userId))) throw error;
    return { node, appPermission: 'none', asParticipant: true };
  }
}

/** Whether the user holds a work item in any flow of the form (the work items' participant index). */
export async function isFlowParticipant(edb: EngineExecutor, schemaCode: string, userId: string): Promise<boolean> {
  const row = await edb
    .selectFrom('wf_work_items as w')
    .innerJoin('wf_instances as i', 'i.id', 'w.instance_id')
    .select(sql.lit(1).as('one'))
    .where('w.participant', '=', userId)
    .where('i.schema_code', '=', schemaCode)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
