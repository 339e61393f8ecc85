import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { deleteStoredBytes } from '../business-data/record-files.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { setCustomActions } from '../open-api/custom-actions-port.ts';
import { viewerOf } from '../function-node/node-context.ts';
import { nodeReads } from '../function-node/node-reads.ts';
import { runFormHandler } from './form-script-hooks.ts';
import { runAppAction } from './script-actions.ts';
import { serverScriptOf } from './script-source.ts';

// Custom APIs on /OpenApi/Invoke (docs/decisions/0118): an ActionName none of the reserved ones names, with SchemaCode
// naming an app (its app-api script's `actions`) or a form (its server script's `actions`). The request's other
// parameters are the action's `params` as they came (nested values may be JSON strings, as the product's clients send
// them). ReturnData is the action's answer when it is an object, else `{ Data: answer }`.

const RESERVED_KEYS = new Set(['ActionName', 'SchemaCode']);
const asReturnData = (data: unknown): Record<string, unknown> => (data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : { Data: data });

export function registerCustomApis(): void {
  setCustomActions(async (ctx, actionName, body, deps) => {
    const schemaCode = typeof body.SchemaCode === 'string' ? body.SchemaCode.trim() : '';
    if (!schemaCode || !/^[A-Za-z_$][\w$]{0,99}$/.test(actionName)) return undefined;
    const params = Object.fromEntries(Object.entries(body).filter(([key]) => !RESERVED_KEYS.has(key)));
    const dropped: string[] = [];
    const answered = await ctx.db.transaction().execute(async (trx) => {
      const edb = engineDb(trx as unknown as Db, ctx.engineCode);
      const node = await nodeReads(edb, await viewerOf(edb, ctx)).findNode(schemaCode);
      if (!node) return undefined;
      if (node.node_type === FunctionNodeType.AppPackage) return runAppAction(edb, ctx, node.code, actionName, params, dropped);
      const script = await serverScriptOf(edb, ctx, node.code);
      if (!script) return undefined;
      const form = await getRuntimeFormOrThrow(edb, ctx, node.code);
      const outcome = await runFormHandler(edb, ctx, form, script, `actions.${actionName}`, { actionName, params, isNew: true, objectId: null, record: {} });
      if (!outcome.handled) return undefined;
      dropped.push(...outcome.dropped);
      return { data: outcome.value ?? outcome.responded ?? null };
    });
    await deleteStoredBytes(deps.files, dropped);
    return answered && asReturnData(answered.data);
  });
}
