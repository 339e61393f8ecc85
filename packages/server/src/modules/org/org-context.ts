import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/types.ts';
import { actorOf } from '../../plugins/auth.ts';
import type { OrgContext } from './org.service.ts';

/** The organisation context of a request whose access ('engine' or 'admin') guarantees an engine and a user. */
export function orgContextOf(request: FastifyRequest, db: Db): OrgContext {
  const actor = actorOf(request);
  return { db, engineCode: actor.engine!.engine_code, companyId: actor.engine!.company_id, userId: actor.userId! };
}
