import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import { migrateEngine } from '../../db/migrate.ts';
import { newEngineCode, newId } from '../../lib/ids.ts';
import { insertUnits, insertUsers } from '../org/org.repo.ts';

export interface CreateEngineInput {
  accountId: string;
  engineName: string;
  scale?: string;
  userName: string;
  mobile: string;
}

/** domain.md §6: user auth types. */
const ADMINISTRATOR = 1;

/**
 * Creates an engine: its row (state allocating while its schema is built), its schema and migrations, the company
 * root unit and the registrant as Administrator; then the engine turns normal. A failure removes what was built.
 */
export async function createEngine(db: Db, input: CreateEngineInput): Promise<{ engineCode: string; userId: string }> {
  const engineCode = newEngineCode();
  const companyId = newId();
  const userId = newId();
  await db
    .insertInto('platform.engines')
    .values({
      engine_code: engineCode,
      engine_name: input.engineName,
      engine_type: 'SaaSDevelopment',
      entry_type: 'Enterprise',
      state: 'allocating',
      company_id: companyId,
      scale: input.scale ?? null,
      logo_url: null,
      license_expires: null,
    })
    .execute();
  try {
    await migrateEngine(db, engineCode);
    await db.transaction().execute(async (trx) => {
      const edb = engineDb(trx as unknown as Db, engineCode);
      await insertUnits(edb, [{ id: companyId, parent_id: null, unit_type: 'Company', name: input.engineName }]);
      await insertUsers(edb, [
        { id: userId, account_id: input.accountId, name: input.userName, mobile: input.mobile, auth_type: ADMINISTRATOR, is_external: false, main_department_id: companyId },
      ]);
      await trx.insertInto('platform.memberships').values({ account_id: input.accountId, engine_code: engineCode, user_id: userId, is_external: false }).execute();
      await trx.updateTable('platform.engines').set({ state: 'normal' }).where('engine_code', '=', engineCode).execute();
    });
  } catch (error) {
    await sql`drop schema if exists ${sql.id(engineSchemaName(engineCode))} cascade`.execute(db);
    await db.deleteFrom('platform.engines').where('engine_code', '=', engineCode).execute();
    throw error;
  }
  return { engineCode, userId };
}
