import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { sql } from 'kysely';
import { openTestDatabase } from '../../test/helpers.ts';
import type { Database } from './database.ts';
import { migrateDown, migrateEngine, migratePlatform, prepareSpareEngineSchemas } from './migrate.ts';

// test-databases: both — migrations are DDL, whose behaviour is the database's (docs/testing.md "Runs on both databases").

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function tables(schema: string, db = database.db) {
  const r = await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = ${schema} and table_name not like 'kysely%' order by 1`.execute(db);
  return r.rows.map((row) => row.t);
}

async function spares(db = database.db) {
  const r = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname like 'spare_engine_%' order by 1`.execute(db);
  return r.rows.map((row) => row.name);
}

describe('spare engine schemas', () => {
  it('a new engine takes a spare ready-migrated schema, and an outdated spare is brought up to date', async () => {
    const own = await openTestDatabase();
    onTestFinished(() => own.close());
    const db = own.db;
    await prepareSpareEngineSchemas(db, 2);
    const before = await spares(db);
    expect(before.length).toBeGreaterThanOrEqual(2);
    await migrateEngine(db, 'spare0take');
    expect(await spares(db)).toEqual(before.slice(1));
    expect(await tables('e_spare0take', db)).toContain('org_users');
    expect(await tables(before[0]!, db)).toEqual([]);

    // A spare made before the last migrations: what it lacks is applied when an engine takes it.
    const next = before[1]!;
    await sql`alter schema ${sql.id(next)} rename to e_spare0tmp`.execute(db);
    await migrateDown(db, { engineCode: 'spare0tmp' }, 1);
    await sql`alter schema e_spare0tmp rename to ${sql.id(next)}`.execute(db);
    const ledger = async (schema: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, 'kysely_migration')}`.execute(db)).rows[0]!.n;
    expect(await ledger(next)).toBe((await ledger('e_spare0take')) - 1);
    await migrateEngine(db, 'spare0old');
    expect(await tables('e_spare0old', db)).toEqual(await tables('e_spare0take', db));

    // The spare was taken whole: no engine shares a schema, and an engine at the latest migration is left alone.
    expect(await spares(db)).toEqual(before.slice(2));
    await migrateEngine(db, 'spare0old');
    expect(await spares(db)).toEqual(before.slice(2));
  });
});

describe('migrations', () => {
  it('run up, down and up again for the platform and for an engine schema', async () => {
    await migratePlatform(database.db);
    await migrateEngine(database.db, 'mig0test');
    const platformTables = await tables('platform');
    const engineTables = await tables('e_mig0test');
    expect(platformTables).toEqual(expect.arrayContaining(['accounts', 'engines', 'memberships', 'verify_codes', 'revoked_tokens', 'invitations', 'jobs', 'rate_limit_counters']));
    expect(engineTables).toEqual(['ai_settings', 'ai_usage', 'app_sample_records', 'attendance_punches', 'automation_runs', 'automations', 'biz_logs', 'boards', 'connections', 'connector_calls', 'connector_deliveries', 'connectors', 'custom_code_versions', 'custom_codes', 'data_import_objects', 'data_import_rows', 'data_port_tasks', 'data_sources', 'dingtalk_shortcuts', 'directory_events', 'engine_secrets', 'esign_events', 'esign_flows', 'esign_signers', 'face_checks', 'face_photos', 'files', 'form_business_rules', 'form_comments', 'form_custom_indexes', 'form_data_logs', 'form_dependencies', 'form_open_queries', 'form_permission_groups', 'form_public_links', 'form_schemas', 'form_seq_no', 'form_tables', 'form_task_tips', 'function_nodes', 'gantt_links', 'gantt_tasks', 'internal_messages', 'list_views', 'node_permissions', 'notification_channels', 'notification_deliveries', 'notification_preferences', 'notification_robots', 'oplog', 'oplog_head', 'org_role_members', 'org_unit_identities', 'org_units', 'org_user_departments', 'org_user_identities', 'org_user_posts', 'org_users', 'payment_orders', 'payment_refunds', 'personal_views', 'plugin_instances', 'print_excel_templates', 'print_tasks', 'print_templates', 'recognition_templates', 'record_share_links', 'remind_tasks', 'script_limits', 'sign_in_providers', 'wf_comments', 'wf_instances', 'wf_template_drafts', 'wf_templates', 'wf_tokens', 'wf_work_items', 'workbench_configs', 'workbench_visits']);

    await migrateDown(database.db, { engineCode: 'mig0test' });
    // The template's spare engine schemas use the platform's trigger functions: take them away first.
    for (const spare of await spares()) await sql`drop schema ${sql.id(spare)} cascade`.execute(database.db);
    await migrateDown(database.db, {});
    expect(await tables('e_mig0test')).toEqual([]);
    expect(await tables('platform')).toEqual([]);

    await migratePlatform(database.db);
    await migrateEngine(database.db, 'mig0test');
    expect(await tables('platform')).toEqual(platformTables);
    expect(await tables('e_mig0test')).toEqual(engineTables);
  });
});
