import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import * as accountsAndEngines from './migrations/platform/2026-11-22T0400_create-accounts-and-engines.ts';
import * as signInSupport from './migrations/platform/2026-11-22T0410_create-sign-in-support.ts';
import * as invitations from './migrations/platform/2026-11-22T0510_create-invitations.ts';
import * as jobs from './migrations/platform/2026-11-22T0610_create-jobs.ts';
import * as formCastFunctions from './migrations/platform/2026-11-22T0900_create-form-cast-functions.ts';
import * as accessCounters from './migrations/platform/2026-11-25T0900_create-access-counters.ts';
import * as contextVersions from './migrations/platform/2026-11-25T0900_create-context-versions.ts';
import * as jobRunAfter from './migrations/platform/2026-11-25T2000_add-job-run-after.ts';
import * as automationSchedules from './migrations/platform/2026-11-26T1000_create-automation-schedules.ts';
import * as taskTipTimers from './migrations/platform/2026-11-26T1100_create-task-tip-timers.ts';
import * as shortLinks from './migrations/platform/2026-11-26T1500_create-short-links.ts';
import * as workflowTimers from './migrations/platform/2026-11-26T1200_create-workflow-timers.ts';
import * as dataVersions from './migrations/platform/2026-11-26T1700_create-data-versions.ts';
import * as dataChanges from './migrations/platform/2026-11-26T1900_data-changes-without-row-locks.ts';
import * as signInFlows from './migrations/platform/2026-11-26T1800_create-sign-in-flows.ts';
import * as signInFlowPayload from './migrations/platform/2026-11-27T0200_sign-in-flow-payload.ts';
import * as associatedOrgs from './migrations/platform/2026-11-27T0500_create-associated-orgs.ts';
import * as workflowLockAndRead from './migrations/platform/2026-11-27T0900_create-workflow-lock-and-read.ts';
import * as workflowLockAndReadPlanned from './migrations/platform/2026-11-27T1300_workflow-lock-and-read-planned-once.ts';
import * as jobsWakeRunners from './migrations/platform/2026-11-27T1900_jobs-wake-runners.ts';
import * as workflowTryLockAndRead from './migrations/platform/2026-11-27T2300_workflow-try-lock-and-read.ts';
import * as invitationLinks from './migrations/platform/2026-11-28T0100_create-invitation-links.ts';
import * as signLinks from './migrations/platform/2026-11-28T2200_create-sign-links.ts';
import * as rateLimitCounters from './migrations/platform/2026-11-29T0500_create-rate-limit-counters.ts';
import * as jobRequestId from './migrations/platform/2026-11-29T0510_add-job-request-id.ts';
import * as templates from './migrations/platform/2026-12-02T0300_create-templates.ts';
import * as functionNodes from './migrations/engine/2026-11-22T0600_create-function-nodes.ts';
import * as orgUnits from './migrations/engine/2026-11-22T0420_create-org-units.ts';
import * as organisation from './migrations/engine/2026-11-22T0500_create-organisation.ts';
import * as formSchemas from './migrations/engine/2026-11-22T0900_create-form-schemas.ts';
import * as formDataLogs from './migrations/engine/2026-11-22T1000_create-form-data-logs.ts';
import * as files from './migrations/engine/2026-11-22T1100_create-files.ts';
import * as formCommentsAndTaskTips from './migrations/engine/2026-11-23T1000_create-form-comments-and-task-tips.ts';
import * as workflow from './migrations/engine/2026-11-23T1200_create-workflow.ts';
import * as businessRules from './migrations/engine/2026-11-23T1300_create-business-rules.ts';
import * as remindTasks from './migrations/engine/2026-11-23T1340_create-remind-tasks.ts';
import * as views from './migrations/engine/2026-11-23T1320_create-views.ts';
import * as engineSecrets from './migrations/engine/2026-11-23T1360_create-engine-secrets.ts';
import * as dataPort from './migrations/engine/2026-11-23T1350_create-data-port.ts';
import * as childFlows from './migrations/engine/2026-11-23T1410_index-child-flows.ts';
import * as importRollback from './migrations/engine/2026-11-25T0900_create-import-rollback.ts';
import * as contextVersionTriggers from './migrations/engine/2026-11-25T0900_context-version-triggers.ts';
import * as formPermissionGroups from './migrations/engine/2026-11-25T1700_create-form-permission-groups.ts';
import * as internalMessages from './migrations/engine/2026-11-25T2000_create-internal-messages.ts';
import * as notificationChannels from './migrations/engine/2026-11-25T2100_create-notification-channels.ts';
import * as automations from './migrations/engine/2026-11-26T1000_create-automations.ts';
import * as formPublicLinks from './migrations/engine/2026-11-26T1300_create-form-public-links.ts';
import * as recordShareLinks from './migrations/engine/2026-11-26T1500_create-record-share-links.ts';
import * as formOpenQueries from './migrations/engine/2026-11-26T1510_create-form-open-queries.ts';
import * as print from './migrations/engine/2026-11-26T1600_create-print.ts';
import * as workItemDeadlines from './migrations/engine/2026-11-26T1200_add-work-item-deadlines.ts';
import * as boards from './migrations/engine/2026-11-26T1700_create-boards.ts';
import * as businessRulesContextVersion from './migrations/engine/2026-11-26T1900_business-rules-context-version.ts';
import * as gantt from './migrations/engine/2026-11-26T1900_create-gantt.ts';
import * as scopeCountIndexes from './migrations/engine/2026-11-27T0100_scope-count-indexes.ts';
import * as signInProviders from './migrations/engine/2026-11-26T1800_create-sign-in-providers.ts';
import * as dingtalkShortcuts from './migrations/engine/2026-11-27T0100_create-dingtalk-shortcuts.ts';
import * as directoryEvents from './migrations/engine/2026-11-27T0400_create-directory-events.ts';
import * as oneWechatPerUser from './migrations/engine/2026-11-27T0900_one-wechat-per-user.ts';
import * as foldedColumns from './migrations/engine/2026-11-27T1200_form-tables-folded-columns.ts';
import * as operationLog from './migrations/engine/2026-11-28T2200_create-operation-log.ts';
import * as bizLogs from './migrations/engine/2026-11-29T0100_create-biz-logs.ts';
import * as customCodes from './migrations/engine/2026-11-29T0200_create-custom-codes.ts';
import * as scriptLimits from './migrations/engine/2026-11-29T0300_create-script-limits.ts';
import * as connections from './migrations/engine/2026-11-29T0400_create-connections.ts';
import * as pluginInstances from './migrations/engine/2026-11-30T0100_create-plugin-instances.ts';
import * as chatApps from './migrations/engine/2026-11-30T0500_create-chat-apps.ts';
import * as paymentOrders from './migrations/engine/2026-11-30T0300_create-payment-orders.ts';
import * as esignFlows from './migrations/engine/2026-11-30T0400_create-esign-flows.ts';
import * as faceChecks from './migrations/engine/2026-11-30T0600_create-face-checks.ts';
import * as connectorDeliveriesAndDataSources from './migrations/engine/2026-11-30T0200_create-connector-deliveries-and-data-sources.ts';
import * as aiSettings from './migrations/engine/2026-11-30T0700_create-ai-settings.ts';
import * as oneRunningESignFlow from './migrations/engine/2026-11-30T0800_one-running-esign-flow.ts';
import * as recognitionTemplates from './migrations/engine/2026-12-01T0100_create-recognition-templates.ts';
import * as formTablesUuidIds from './migrations/engine/2026-12-01T0400_form-tables-uuid-ids.ts';
import * as appPackages from './migrations/platform/2026-12-02T0201_create-app-packages.ts';
import * as appSampleRecords from './migrations/engine/2026-12-02T0101_create-app-sample-records.ts';
import * as workflowHotUpdates from './migrations/engine/2026-12-02T0700_workflow-hot-updates.ts';
import { engineSchemaName } from './database.ts';

// Migrations are listed here by name (sorted by the migrator); files are frozen once released.
const platformMigrations: Record<string, Migration> = {
  '2026-11-22T0400_create-accounts-and-engines': accountsAndEngines,
  '2026-11-22T0410_create-sign-in-support': signInSupport,
  '2026-11-22T0510_create-invitations': invitations,
  '2026-11-22T0610_create-jobs': jobs,
  '2026-11-22T0900_create-form-cast-functions': formCastFunctions,
  '2026-11-25T0900_create-access-counters': accessCounters,
  '2026-11-25T0900_create-context-versions': contextVersions,
  '2026-11-25T2000_add-job-run-after': jobRunAfter,
  '2026-11-26T1000_create-automation-schedules': automationSchedules,
  '2026-11-26T1100_create-task-tip-timers': taskTipTimers,
  '2026-11-26T1500_create-short-links': shortLinks,
  '2026-11-26T1200_create-workflow-timers': workflowTimers,
  '2026-11-26T1700_create-data-versions': dataVersions,
  '2026-11-26T1900_data-changes-without-row-locks': dataChanges,
  '2026-11-26T1800_create-sign-in-flows': signInFlows,
  '2026-11-27T0200_sign-in-flow-payload': signInFlowPayload,
  '2026-11-27T0500_create-associated-orgs': associatedOrgs,
  '2026-11-27T0900_create-workflow-lock-and-read': workflowLockAndRead,
  '2026-11-27T1300_workflow-lock-and-read-planned-once': workflowLockAndReadPlanned,
  '2026-11-27T1900_jobs-wake-runners': jobsWakeRunners,
  '2026-11-27T2300_workflow-try-lock-and-read': workflowTryLockAndRead,
  '2026-11-28T0100_create-invitation-links': invitationLinks,
  '2026-11-28T2200_create-sign-links': signLinks,
  '2026-11-29T0500_create-rate-limit-counters': rateLimitCounters,
  '2026-11-29T0510_add-job-request-id': jobRequestId,
  '2026-12-02T0201_create-app-packages': appPackages,
  '2026-12-02T0300_create-templates': templates,
};

const engineMigrations: Record<string, Migration> = {
  '2026-11-22T0420_create-org-units': orgUnits,
  '2026-11-22T0500_create-organisation': organisation,
  '2026-11-22T0600_create-function-nodes': functionNodes,
  '2026-11-22T0900_create-form-schemas': formSchemas,
  '2026-11-22T1000_create-form-data-logs': formDataLogs,
  '2026-11-22T1100_create-files': files,
  '2026-11-23T1000_create-form-comments-and-task-tips': formCommentsAndTaskTips,
  '2026-11-23T1200_create-workflow': workflow,
  '2026-11-23T1300_create-business-rules': businessRules,
  '2026-11-23T1340_create-remind-tasks': remindTasks,
  '2026-11-23T1320_create-views': views,
  '2026-11-23T1360_create-engine-secrets': engineSecrets,
  '2026-11-23T1350_create-data-port': dataPort,
  '2026-11-23T1410_index-child-flows': childFlows,
  '2026-11-25T0900_create-import-rollback': importRollback,
  '2026-11-25T0900_context-version-triggers': contextVersionTriggers,
  '2026-11-25T1700_create-form-permission-groups': formPermissionGroups,
  '2026-11-25T2000_create-internal-messages': internalMessages,
  '2026-11-25T2100_create-notification-channels': notificationChannels,
  '2026-11-26T1000_create-automations': automations,
  '2026-11-26T1200_add-work-item-deadlines': workItemDeadlines,
  '2026-11-26T1300_create-form-public-links': formPublicLinks,
  '2026-11-26T1500_create-record-share-links': recordShareLinks,
  '2026-11-26T1510_create-form-open-queries': formOpenQueries,
  '2026-11-26T1600_create-print': print,
  '2026-11-26T1700_create-boards': boards,
  '2026-11-26T1900_business-rules-context-version': businessRulesContextVersion,
  '2026-11-26T1900_create-gantt': gantt,
  '2026-11-27T0100_scope-count-indexes': scopeCountIndexes,
  '2026-11-26T1800_create-sign-in-providers': signInProviders,
  '2026-11-27T0100_create-dingtalk-shortcuts': dingtalkShortcuts,
  '2026-11-27T0400_create-directory-events': directoryEvents,
  '2026-11-27T0900_one-wechat-per-user': oneWechatPerUser,
  '2026-11-27T1200_form-tables-folded-columns': foldedColumns,
  '2026-11-28T2200_create-operation-log': operationLog,
  '2026-11-29T0100_create-biz-logs': bizLogs,
  '2026-11-29T0200_create-custom-codes': customCodes,
  '2026-11-29T0300_create-script-limits': scriptLimits,
  '2026-11-29T0400_create-connections': connections,
  '2026-11-30T0100_create-plugin-instances': pluginInstances,
  '2026-11-30T0500_create-chat-apps': chatApps,
  '2026-11-30T0300_create-payment-orders': paymentOrders,
  '2026-11-30T0400_create-esign-flows': esignFlows,
  '2026-11-30T0600_create-face-checks': faceChecks,
  '2026-11-30T0200_create-connector-deliveries-and-data-sources': connectorDeliveriesAndDataSources,
  '2026-11-30T0700_create-ai-settings': aiSettings,
  '2026-11-30T0800_one-running-esign-flow': oneRunningESignFlow,
  '2026-12-01T0100_create-recognition-templates': recognitionTemplates,
  '2026-12-01T0400_form-tables-uuid-ids': formTablesUuidIds,
  '2026-12-02T0101_create-app-sample-records': appSampleRecords,
  '2026-12-02T0700_workflow-hot-updates': workflowHotUpdates,
};

function migrator(db: Kysely<any>, migrations: Record<string, Migration>, schema: string): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
    migrationTableName: 'kysely_migration',
    migrationLockTableName: 'kysely_migration_lock',
  });
}

function check(result: MigrationResultSet, what: string): void {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`${what} migration ${failed?.migrationName ?? ''} failed: ${String(result.error)}`, { cause: result.error });
  }
}

export async function migratePlatform(db: Kysely<any>): Promise<void> {
  await db.schema.createSchema('platform').ifNotExists().execute();
  check(await migrator(db, platformMigrations, 'platform').migrateToLatest(), 'platform');
}

/** Platform migrations this code knows that the database has not applied (the readiness check; none once migrated). */
export async function pendingPlatformMigrations(db: Kysely<any>): Promise<string[]> {
  const names = Object.keys(platformMigrations);
  const applied = await sql<{ name: string }>`select name from platform.kysely_migration where name = any(${names})`.execute(db);
  const done = new Set(applied.rows.map((r) => r.name));
  return names.filter((n) => !done.has(n));
}

/**
 * Brings one engine's schema to the latest engine migration. A new engine takes a spare schema when one is ready
 * (prepareSpareEngineSchemas, decision 0069): renaming it costs one statement where the migrations cost ~170 DDL
 * statements and seconds. A schema already at the latest migration is left after one read.
 */
export async function migrateEngine(db: Kysely<any>, engineCode: string): Promise<void> {
  const schema = engineSchemaName(engineCode);
  const { exists, migrated } = await schemaState(db, schema);
  if (migrated) return;
  if (!exists && (await claimSpareSchema(db, schema)) && (await schemaState(db, schema)).migrated) return;
  await migrateSchema(db, schema, `engine ${engineCode}`);
}

async function migrateSchema(db: Kysely<any>, schema: string, what: string): Promise<void> {
  await db.schema.createSchema(schema).ifNotExists().execute();
  check(await migrator(db.withSchema(schema), engineMigrations, schema).migrateToLatest(), what);
}

/** Whether the schema exists, and whether it holds every engine migration (one statement, no catalogue scan). */
async function schemaState(db: Kysely<any>, schema: string): Promise<{ exists: boolean; migrated: boolean }> {
  const found = await sql<{ exists: boolean; ledger: string | null }>`
    select exists (select from pg_namespace where nspname = ${schema}) as exists, to_regclass(${`"${schema}".kysely_migration`})::text as ledger`.execute(db);
  const { exists, ledger } = found.rows[0]!;
  if (!ledger) return { exists, migrated: false };
  const applied = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, 'kysely_migration')} where name = any(${Object.keys(engineMigrations)})`.execute(db);
  return { exists, migrated: applied.rows[0]!.n === Object.keys(engineMigrations).length };
}

const SPARE_PREFIX = 'spare_engine_';

/**
 * Renames a spare schema to the engine's. Two registrations racing for the same spare: the second's rename fails
 * (the spare is gone) and it migrates a schema of its own.
 */
async function claimSpareSchema(db: Kysely<any>, schema: string): Promise<boolean> {
  const spare = await sql<{ name: string }>`select nspname as name from pg_namespace where starts_with(nspname, ${SPARE_PREFIX}) order by nspname limit 1`.execute(db);
  const name = spare.rows[0]?.name;
  if (!name) return false;
  return sql`alter schema ${sql.id(name)} rename to ${sql.id(schema)}`.execute(db).then(
    () => true,
    () => false,
  );
}

/** Migrates `count` spare engine schemas for registrations to take (tests' templates; a deployment may keep some). */
export async function prepareSpareEngineSchemas(db: Kysely<any>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const schema = `${SPARE_PREFIX}${Date.now().toString(36)}${i.toString().padStart(3, '0')}`;
    await migrateSchema(db, schema, `spare ${schema}`);
  }
}

/** The migration names this code knows, sorted as the migrator applies them (backup files record them; decision 0127). */
export function knownMigrations(): { platform: string[]; engine: string[] } {
  return { platform: Object.keys(platformMigrations).sort(), engine: Object.keys(engineMigrations).sort() };
}

/**
 * Creates `schema` and applies the engine migrations up to `lastName` only (a backup's level; decision 0127): its
 * tables then have the columns the backup's rows were written with, and migrateEngine takes them the rest of the way.
 */
export async function migrateEngineSchemaTo(db: Kysely<any>, schema: string, lastName: string): Promise<void> {
  await db.schema.createSchema(schema).execute();
  check(await migrator(db.withSchema(schema), engineMigrations, schema).migrateTo(lastName), `${schema} to ${lastName}`);
}

/** Brings every engine schema to the latest engine migration (at start-up). */
export async function migrateAllEngines(db: Kysely<any>): Promise<void> {
  const engines = await db.selectFrom('platform.engines').select('engine_code').execute();
  for (const e of engines) await migrateEngine(db, e.engine_code as string);
}

/** Rolls one set down (all the way unless `steps` says how far); used by the migration tests. */
export async function migrateDown(db: Kysely<any>, target: { engineCode?: string }, steps = Infinity): Promise<void> {
  const schema = target.engineCode ? engineSchemaName(target.engineCode) : 'platform';
  const scoped = target.engineCode ? db.withSchema(schema) : db;
  const m = migrator(scoped, target.engineCode ? engineMigrations : platformMigrations, schema);
  for (let step = 0; step < steps; step++) {
    const result = await m.migrateDown();
    check(result, schema);
    if (!result.results?.length) break;
  }
}
