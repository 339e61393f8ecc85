import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { EXTERNAL_ROOT_NODE_ID, EXTERNAL_ROOT_NODE_NAME } from '@tritium/shared/constants/org';
import { openTestDatabase } from '../../../test/helpers.ts';
import type { Database } from '../../db/database.ts';
import { engineDb } from '../../db/database.ts';
import { migrateEngine } from '../../db/migrate.ts';
import * as orgUnits from '../../db/migrations/engine/2026-11-22T0420_create-org-units.ts';

// test-databases: both — a data migration's SQL (docs/testing.md "Runs on both databases").

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('the organisation migration', () => {
  it('brings an engine created before it up to date: search keys, main department memberships, the external root', async () => {
    const schema = 'e_orgmig01';
    await database.db.schema.createSchema(schema).execute();
    const scoped = database.db.withSchema(schema);
    // The engine as it was before issue 3: only the first engine migration.
    const old = new Migrator({
      db: scoped,
      provider: { getMigrations: async () => ({ '2026-11-22T0420_create-org-units': orgUnits }) },
      migrationTableSchema: schema,
      migrationTableName: 'kysely_migration',
      migrationLockTableName: 'kysely_migration_lock',
    });
    expect((await old.migrateToLatest()).error).toBeUndefined();
    await scoped.insertInto('org_units' as any).values({ id: 'c1', parent_id: null, unit_type: 'Company', name: '老公司' }).execute();
    await scoped.insertInto('org_users' as any).values({ id: 'u1', account_id: null, name: '曾国藩', mobile: '13800001111', auth_type: 1, main_department_id: 'c1' }).execute();

    await migrateEngine(database.db, 'orgmig01');
    const edb = engineDb(database.db, 'orgmig01');
    expect(await edb.selectFrom('org_users').select(['name_pinyin', 'name_initials', 'search_text']).executeTakeFirstOrThrow()).toEqual({
      name_pinyin: 'zengguofan',
      name_initials: 'zgf',
      search_text: '曾国藩 zengguofan zgf 13800001111',
    });
    expect((await edb.selectFrom('org_units').select('name_pinyin').where('id', '=', 'c1').executeTakeFirstOrThrow()).name_pinyin).toBe('laogongsi');
    expect(await edb.selectFrom('org_user_departments').select(['user_id', 'department_id', 'is_main']).execute()).toEqual([{ user_id: 'u1', department_id: 'c1', is_main: true }]);
    const root = await edb.selectFrom('org_units').selectAll().where('is_external', '=', true).execute();
    expect(root).toHaveLength(1);
    expect(root[0]).toMatchObject({ id: EXTERNAL_ROOT_NODE_ID, name: EXTERNAL_ROOT_NODE_NAME, unit_type: 'OrganizationUnit', parent_id: null });
  });
});
