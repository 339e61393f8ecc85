import type { Transaction } from 'kysely';
import { EXTERNAL_ROOT_NODE_ID } from '@tritium/shared/constants/org';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { findEngine } from '../engine/engine.repo.ts';
import { findUnit, insertUnits, nextSortKey, siblingNameTaken, type EngineExecutor } from '../org/org.repo.ts';
import type { AssociationRow } from './associated-org.repo.ts';

/** What the association calls need: the database and the clock (tests move it to expire links). */
export interface AssociationDeps {
  db: Db;
  now?: () => number;
}

export const nowOf = (deps: AssociationDeps) => new Date(deps.now ? deps.now() : Date.now());

/** The host's external department for the partner: under 外部组织, named after it (「名称（2）」 when the name is taken). */
export async function createBoundDepartment(edb: EngineExecutor, partnerName: string): Promise<string> {
  let name = partnerName;
  for (let n = 2; await siblingNameTaken(edb, EXTERNAL_ROOT_NODE_ID, 'OrganizationUnit', name); n += 1) name = `${partnerName}（${n}）`;
  const id = newId();
  await insertUnits(edb, [
    { id, parent_id: EXTERNAL_ROOT_NODE_ID, unit_type: 'OrganizationUnit', name, is_external: true, manager_id: null, sort_key: await nextSortKey(edb, EXTERNAL_ROOT_NODE_ID, 'OrganizationUnit') },
  ]);
  return id;
}

/** The bound department, made again when the host removed it (it was empty) while the association lasted. */
export async function boundDepartment(trx: Transaction<PlatformDb>, row: AssociationRow): Promise<string> {
  const edb = engineDb(trx as unknown as Db, row.host_engine_code);
  if (row.department_id && (await findUnit(edb, row.department_id))) return row.department_id;
  const partner = (await findEngine(trx, row.partner_engine_code!))!;
  const id = await createBoundDepartment(edb, partner.engine_name);
  await trx.updateTable('platform.associated_orgs').set({ department_id: id }).where('id', '=', row.id).execute();
  return id;
}


/** The department of the latest earlier association of the pair, when the host still has it. */
export async function formerDepartment(trx: Transaction<PlatformDb>, hostEdb: EngineExecutor, hostEngineCode: string, partnerEngineCode: string): Promise<string | undefined> {
  const earlier = await trx
    .selectFrom('platform.associated_orgs')
    .select('department_id')
    .where('host_engine_code', '=', hostEngineCode)
    .where('partner_engine_code', '=', partnerEngineCode)
    .where('state', '=', 'ended')
    .where('department_id', 'is not', null)
    .orderBy('accepted_time', 'desc')
    .limit(1)
    .executeTakeFirst();
  return earlier?.department_id && (await findUnit(hostEdb, earlier.department_id)) ? earlier.department_id : undefined;
}
