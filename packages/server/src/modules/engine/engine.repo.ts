import type { Kysely, Transaction } from 'kysely';
import type { EngineRow, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { findEngine } from '../request-context/engine-state.ts';

type Executor = Kysely<PlatformDb> | Transaction<PlatformDb>;

// The row type lives in db/types.ts so modules below engine (request-context) can name it; re-exported here.
export type { EngineRow };

// findEngine lives in request-context/engine-state.ts (the request plugin reads it); re-exported for callers.
export { findEngine };

export interface EngineMember {
  engine: EngineRow;
  userId: string;
  isExternal: boolean;
  userName: string;
  mobile: string;
  authType: number;
  userState: 'active' | 'disabled';
}

/** The account's membership in one engine, with the engine and its user record; undefined when not a member. */
export async function findEngineMember(db: Executor, accountId: string, engineCode: string): Promise<EngineMember | undefined> {
  const membership = await db
    .selectFrom('platform.memberships as m')
    .innerJoin('platform.engines as e', 'e.engine_code', 'm.engine_code')
    .selectAll('e')
    .select(['m.user_id', 'm.is_external'])
    .where('m.account_id', '=', accountId)
    .where('m.engine_code', '=', engineCode)
    .executeTakeFirst();
  if (!membership) return undefined;
  const { user_id, is_external, ...engine } = membership;
  const user = await engineDb(db as Kysely<PlatformDb>, engineCode)
    .selectFrom('org_users')
    .select(['name', 'mobile', 'auth_type', 'state'])
    .where('id', '=', user_id)
    .executeTakeFirst();
  if (!user) return undefined;
  return {
    engine: engine as EngineRow,
    userId: user_id,
    isExternal: is_external,
    userName: user.name,
    mobile: user.mobile,
    authType: user.auth_type,
    userState: user.state,
  };
}

export interface ConnectedEngineRow extends EngineRow {
  is_external: boolean;
}

/** `onlyEngine`: a session bound to one engine (SSO, a chat platform) lists that engine alone. */
export async function listConnectedEngines(db: Executor, accountId: string, page: { offset: number; limit: number | null }, onlyEngine?: string) {
  let q = db
    .selectFrom('platform.memberships as m')
    .innerJoin('platform.engines as e', 'e.engine_code', 'm.engine_code')
    .selectAll('e')
    .select('m.is_external')
    .where('m.account_id', '=', accountId)
    .$if(!!onlyEngine, (qb) => qb.where('m.engine_code', '=', onlyEngine!))
    .orderBy('m.is_external')
    .orderBy('m.joined_time')
    .orderBy('e.engine_code')
    .offset(page.offset);
  if (page.limit !== null) q = q.limit(page.limit + 1);
  const rows = (await q.execute()) as ConnectedEngineRow[];
  const total = await db
    .selectFrom('platform.memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .$if(!!onlyEngine, (qb) => qb.where('engine_code', '=', onlyEngine!))
    .executeTakeFirstOrThrow();
  const hasMore = page.limit !== null && rows.length > page.limit;
  return { rows: hasMore ? rows.slice(0, page.limit!) : rows, total: Number(total.n), hasMore };
}

export async function listMemberships(db: Executor, accountId: string) {
  return db
    .selectFrom('platform.memberships as m')
    .innerJoin('platform.engines as e', 'e.engine_code', 'm.engine_code')
    .select(['m.engine_code', 'm.is_external', 'e.state'])
    .where('m.account_id', '=', accountId)
    .orderBy('m.is_external')
    .orderBy('m.joined_time')
    .execute();
}
