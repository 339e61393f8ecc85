import { sql } from 'kysely';
import { Automation, isDataEventTrigger } from '@tritium/shared/automation/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { ContextSnapshot } from '../request-context/context.ts';

// The automations table (docs/decisions/0041): one row per automation, its model as JSON.

export interface AutomationRow {
  id: string;
  schema_code: string;
  name: string;
  enabled: boolean;
  trigger_type: string;
  definition: unknown;
  run_as: string;
  owner: string;
  webhook_token: string | null;
  modified_time: Date;
}

/** A stored automation: the row with its model parsed (defaults filled). */
export interface StoredAutomation {
  id: string;
  schemaCode: string;
  enabled: boolean;
  owner: string;
  runAs: 'owner' | 'system';
  model: Automation;
  webhookToken: string | null;
  modifiedTime: Date;
}

export const storedOf = (row: AutomationRow): StoredAutomation => ({
  id: row.id,
  schemaCode: row.schema_code,
  enabled: row.enabled,
  owner: row.owner,
  runAs: row.run_as === 'system' ? 'system' : 'owner',
  model: Automation.parse({ ...(row.definition as object), id: row.id, name: row.name, enabled: row.enabled, runAs: row.run_as }),
  webhookToken: row.webhook_token,
  modifiedTime: row.modified_time,
});

const columns = ['id', 'schema_code', 'name', 'enabled', 'trigger_type', 'definition', 'run_as', 'owner', 'webhook_token', 'modified_time'] as const;

export async function listAutomationRows(edb: EngineExecutor, schemaCode: string): Promise<AutomationRow[]> {
  return (await edb.selectFrom('automations').select(columns).where('schema_code', '=', schemaCode).orderBy('created_time').orderBy('id').execute()) as AutomationRow[];
}

export async function findAutomation(edb: EngineExecutor, id: string, options: { forUpdate?: boolean } = {}): Promise<StoredAutomation | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  let q = edb.selectFrom('automations').select(columns).where('id', '=', id);
  if (options.forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? storedOf(row as AutomationRow) : undefined;
}

export async function countAutomations(edb: EngineExecutor, schemaCode: string): Promise<number> {
  const r = await edb.selectFrom('automations').select(sql<number>`count(*)::int`.as('n')).where('schema_code', '=', schemaCode).executeTakeFirstOrThrow();
  return r.n;
}

/** The model without what has columns of its own. */
export const definitionJson = (model: Automation) => {
  const { id: _id, name: _name, enabled: _enabled, runAs: _runAs, ...rest } = model;
  return JSON.stringify(rest);
};

/**
 * The enabled automations a record event of the form may start, as a save sees them: from the request's cache while
 * the engine's 'forms' version holds (every change of the table bumps it), so that a form without automations pays
 * no statement for them.
 */
export async function eventAutomations(edb: EngineExecutor, context: ContextSnapshot | undefined, schemaCode: string): Promise<StoredAutomation[]> {
  const load = async () => {
    const rows = await edb.selectFrom('automations').select(columns).where('schema_code', '=', schemaCode).where('enabled', '=', true).execute();
    return (rows as AutomationRow[]).filter((r) => isDataEventTrigger(r.trigger_type as never)).map(storedOf);
  };
  if (!context || context.changing) return load();
  return context.caches.automations.get(context.engineCode, context.formsVersion, schemaCode, load) as Promise<StoredAutomation[]>;
}
