import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppError } from '../../lib/app-error.ts';
import { assertCanAdministerApp, type NodeViewer } from '../function-node/function-node.policy.ts';
import { getNodeOrThrow } from '../function-node/node-context.ts';
import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';

// Who may design and read which form (docs/decisions/0006 "Authorisation"), built on the function-node policy
// (docs/decisions/0004): a form one may not open does not exist (404 / 230001); designing — loading the draft,
// saving, publishing, indexes, sequence numbers, the designer's checks — needs the form's app administered
// (403 / 230005); the published schema is read by whoever may open the form.

/** Node types that have a form: form 200, workflow 210, singleton 240. */
export const FORM_NODE_TYPES: readonly number[] = [FunctionNodeType.FormModule, FunctionNodeType.WorkflowModule, FunctionNodeType.SingletonModule];

export type FormNeed = 'open' | 'administer';

export async function getFormNodeOrThrow(edb: EngineExecutor, viewer: NodeViewer, schemaCode: string, need: FormNeed): Promise<NodeRow> {
  const { view, node } = await getNodeOrThrow(edb, viewer, schemaCode);
  if (need === 'administer') assertCanAdministerApp(viewer, view.permissionOf(view.app.code), view.app.code);
  if (!FORM_NODE_TYPES.includes(node.node_type)) throw new AppError('FormNodeNotForm', { detail: { code: node.code, nodeType: node.node_type } });
  return node;
}
