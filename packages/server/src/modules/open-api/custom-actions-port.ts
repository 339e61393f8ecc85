import type { NodeContext } from '../function-node/node-context.ts';
import type { Body, InvokeDeps } from './open-api-params.ts';

// Custom APIs (docs/decisions/0118): an ActionName that is none of the reserved ones is offered to the app scripts'
// `actions`. The custom-code module registers the implementation at start; the open API does not import it
// (docs/decisions/0026). It answers the ReturnData of the action, or undefined when no script has such an action.

export type CustomActions = (ctx: NodeContext, actionName: string, body: Body, deps: InvokeDeps) => Promise<Record<string, unknown> | undefined>;

let custom: CustomActions | undefined;

export function setCustomActions(next: CustomActions): void {
  custom = next;
}

export const customActions = (): CustomActions | undefined => custom;
