import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/types.ts';
import { actorOf } from '../../plugins/auth.ts';
import { engineOf, type OrgContext } from './org.service.ts';
import { resolveViewer, type Viewer } from './org-viewer.ts';
import { originOf } from '../audit/oplog.ts';

/** The organisation context of a request whose access ('engine' or 'admin') guarantees an engine and a user. */
export function orgContextOf(request: FastifyRequest, db: Db): OrgContext {
  const actor = actorOf(request);
  return { db, engineCode: actor.engine!.engine_code, companyId: actor.engine!.company_id, userId: actor.userId!, origin: originOf(request) };
}

/** A read of the organisation: the context and what the caller may see (docs/decisions/0010), resolved once per request. */
export interface OrgReadContext extends OrgContext {
  viewer: Viewer;
}

export async function orgReadContextOf(request: FastifyRequest, db: Db): Promise<OrgReadContext> {
  const ctx = orgContextOf(request, db);
  return { ...ctx, viewer: await resolveViewer(engineOf(ctx), actorOf(request)) };
}
