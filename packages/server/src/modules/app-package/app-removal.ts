import type { Transaction } from 'kysely';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { addFormsRemoval, dropFormsOf } from '../function-node/forms-removal-port.ts';
import { lockFunctionNodes } from '../function-node/node-context.ts';
import { removeInstances } from '../workflow/instance-removal.ts';
import type { FileStore } from '../files/file-store.ts';

// Removing an app removes every row its forms and nodes own (docs/decisions/0130): what an install writes through the
// designers' services — rules, dependencies, flows (drafts, versions and their instances), automations and their
// schedules, print templates, boards, scripts, permission groups (form design's own removal), data logs, files,
// sample marks — so that an uninstall leaves nothing behind. Registered on the node removal's port: removing any app,
// or any node, takes its rows along, not only installed ones.


/** Deletes what removed nodes own, in the removal's transaction (the tables themselves go with form design's part). */
async function removeOwnedRows(trx: Transaction<PlatformDb>, edb: EngineExecutor, engineCode: string, codes: string[]): Promise<void> {
  if (!codes.length) return;
  const automations = await edb.selectFrom('automations').select('id').where('schema_code', 'in', codes).execute();
  if (automations.length) {
    await trx.deleteFrom('platform.automation_schedules').where('engine_code', '=', engineCode).where('automation_id', 'in', automations.map((a) => a.id)).execute();
    await edb.deleteFrom('automations').where('id', 'in', automations.map((a) => a.id)).execute();
  }
  const instances = await edb.selectFrom('wf_instances').select('id').where('schema_code', 'in', codes).execute();
  await removeInstances(edb, instances.map((i) => i.id));
  await edb.deleteFrom('wf_templates').where('schema_code', 'in', codes).execute();
  await edb.deleteFrom('wf_template_drafts').where('schema_code', 'in', codes).execute();
  await edb.deleteFrom('form_business_rules').where('schema_code', 'in', codes).execute();
  await edb.deleteFrom('form_dependencies').where('schema_code', 'in', codes).execute();
  await edb.deleteFrom('print_templates').where('schema_code', 'in', codes).execute();
  await edb.deleteFrom('print_excel_templates').where('schema_code', 'in', codes).execute();
  await edb.deleteFrom('boards').where('node_code', 'in', codes).execute();
  await edb.deleteFrom('custom_codes').where((eb) => eb.or([eb('schema_code', 'in', codes), eb.and([eb('schema_code', 'is', null), eb('app_code', 'in', codes)])])).execute();
  await edb.deleteFrom('custom_code_versions').where((eb) => eb.or([eb('schema_code', 'in', codes), eb.and([eb('schema_code', 'is', null), eb('app_code', 'in', codes)])])).execute();
  await edb.deleteFrom('form_data_logs').where('schema_code', 'in', codes).execute();
  await edb.deleteFrom('app_sample_records').where('schema_code', 'in', codes).execute();
  const files = await edb.deleteFrom('files').where('schema_code', 'in', codes).returning('storage_key').execute();
  // The bytes go with the rows (a removal that then failed would leave rows without bytes: no such failure is known).
  // Keys start with the engine's code: deleting one from a store that does not hold it does nothing.
  for (const store of fileStores) for (const f of files) await store.delete(f.storage_key).catch(() => undefined);
}

/** The file stores of the apps built in this process (one in production; tests build several). */
const fileStores = new Set<FileStore>();

/** Registers the removal of owned rows on the node removal's port (once per process), and where file bytes live. */
export function registerAppRemoval(store: FileStore): void {
  fileStores.add(store);
  addFormsRemoval(removeOwnedRows);
}

/**
 * Removes an app an install job is still writing (its app node hidden by the job's id): a dead attempt's leftovers
 * before a retry, or what a failed or canceled install made. Answers how many nodes went.
 */
export async function removeHiddenApp(db: Db, engineCode: string, jobId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockFunctionNodes(trx, engineCode);
    const edb = engineDb(trx as unknown as Db, engineCode);
    const apps = await edb.selectFrom('function_nodes').select('code').where('copy_job_id', '=', jobId).where('node_type', '=', FunctionNodeType.AppPackage).execute();
    let removed = 0;
    for (const app of apps) {
      const codes = (await edb.selectFrom('function_nodes').select('code').where('app_code', '=', app.code).execute()).map((r) => r.code);
      await dropFormsOf(trx, edb, engineCode, codes);
      await edb.deleteFrom('app_sample_records').where('app_code', '=', app.code).execute();
      const r = await edb.deleteFrom('function_nodes').where('code', 'in', codes).executeTakeFirst();
      removed += Number(r.numDeletedRows);
    }
    return removed;
  });
}
