import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/types.ts';
import { engineOf, nodeContextOf } from '../function-node/node-context.ts';
import { requireInstalledPlugin } from './plugin-instances.ts';

/**
 * A preHandler that refuses the signed-in routes under `prefix` (430001) while none of `templateCodes` is installed
 * in the caller's engine: the connector plugin gates /v1/connectors/* this way (docs/decisions/0123). Public routes
 * under the prefix (webhooks with their own signature) check for themselves.
 */
export function pluginGate(db: Db, prefix: string, templateCodes: string | readonly string[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const url = request.routeOptions.url;
    if (!url?.startsWith(prefix)) return;
    const access = request.routeOptions.config.access;
    if (access !== 'admin' && access !== 'engine') return;
    await requireInstalledPlugin(engineOf(nodeContextOf(request, db)), templateCodes);
  };
}
