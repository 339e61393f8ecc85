import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { outboundFetch } from '../../lib/outbound-http.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { callConnector } from './connector-calls.ts';
import type { OutsideDeps } from './connector-client.ts';

// `ctx.connectors.call(code, params)` of server scripts (docs/decisions/0118, 0120): the connector's outputs by name.
// The script API has no app at hand, so the app's client (its guard and limits) is handed here when the routes are
// registered; before that, a strict client (no private addresses) is used.

let scriptDeps: OutsideDeps | undefined;

export function setScriptConnectorDeps(deps: OutsideDeps): void {
  scriptDeps = deps;
}

const Args = z.object({ code: z.string().min(1).max(64), params: z.record(z.string(), z.unknown()).nullable() });

/** Runs the connector named for a script; a mistake in the arguments answers 777 in Chinese. */
export async function callConnectorForScript(edb: EngineExecutor, engineCode: string, args: unknown): Promise<Record<string, unknown>> {
  const parsed = Args.safeParse(args);
  if (!parsed.success) throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'connectors.call', message: '参数须为连接器编码和一个对象' }] } });
  const deps = (scriptDeps ??= { http: outboundFetch({ allowPrivate: false }) });
  const result = await callConnector(edb, engineCode, parsed.data.code, parsed.data.params ?? {}, deps, 'script');
  return result.outputs;
}
