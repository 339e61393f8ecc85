import { FEATURE_SWITCH_DEFAULTS, isSwitchOn } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { recordOperation, type OperationActor } from '../audit/oplog.ts';

/** The engine's value of each named switch (its own, or the default); calls.md §9. */
export async function switchValues(db: Db, engineCode: string, names: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(names)];
  if (!unique.length) return new Map();
  const rows = await db.selectFrom('platform.feature_switches').select(['name', 'value']).where('engine_code', '=', engineCode).where('name', 'in', unique).execute();
  const own = new Map(rows.map((r) => [r.name, r.value]));
  return new Map(unique.map((name) => [name, own.get(name) ?? FEATURE_SWITCH_DEFAULTS[name] ?? '0']));
}

/** Whether the switch is on for the engine ('1' only, domain.md §9). */
export async function isFeatureOn(db: Db, engineCode: string, name: string): Promise<boolean> {
  return isSwitchOn((await switchValues(db, engineCode, [name])).get(name));
}

/** Sets the engine's own value of a switch (Administrators; the route checks), written to the operation log with it. */
export async function setSwitch(db: Db, engineCode: string, name: string, value: string, actor: OperationActor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = (await switchValues(trx as unknown as Db, engineCode, [name])).get(name) ?? null;
    await trx
      .insertInto('platform.feature_switches')
      .values({ engine_code: engineCode, name, value })
      .onConflict((oc) => oc.columns(['engine_code', 'name']).doUpdateSet({ value }))
      .execute();
    await recordOperation(engineDb(trx as unknown as Db, engineCode), actor, { kind: 'engineSetting', action: 'update', objectId: name, objectName: name, before: { value: before }, after: { value } });
  });
}
