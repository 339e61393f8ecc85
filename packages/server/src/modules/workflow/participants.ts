import { UserAuthType } from '@tritium/shared/constants/org';
import type { ParticipantSource } from '@tritium/shared/workflow/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// Participant rules → active users of the engine (docs/decisions/0014 "Participants"). Departments' members are their
// direct members (sub-departments not included); a manager chain climbs the originator's main department's parents.

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);

async function activeUsers(edb: EngineExecutor, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await edb.selectFrom('org_users').select('id').where('id', 'in', ids).where('state', '=', 'active').execute();
  return new Set(rows.map((r) => r.id));
}

async function membersOf(edb: EngineExecutor, departmentIds: string[]): Promise<string[]> {
  if (!departmentIds.length) return [];
  const rows = await edb.selectFrom('org_user_departments').select('user_id').where('department_id', 'in', departmentIds).orderBy('user_id').execute();
  return rows.map((r) => r.user_id);
}

async function managersOf(edb: EngineExecutor, departmentIds: string[]): Promise<string[]> {
  if (!departmentIds.length) return [];
  const rows = await edb.selectFrom('org_units').select(['id', 'manager_id']).where('id', 'in', departmentIds).execute();
  const byId = new Map(rows.map((r) => [r.id, r.manager_id]));
  return departmentIds.map((id) => byId.get(id)).filter((m): m is string => !!m);
}

/** Up to `levels` managers above `userId`: the manager of their main department (or of its parent when they are it), … */
export async function managerChain(edb: EngineExecutor, userId: string, levels: number): Promise<string[]> {
  const user = await edb.selectFrom('org_users').select('main_department_id').where('id', '=', userId).executeTakeFirst();
  const out: string[] = [];
  let unitId = user?.main_department_id ?? null;
  let last = userId;
  for (let guard = 0; unitId && out.length < levels && guard < 50; guard++) {
    const unit = await edb.selectFrom('org_units').select(['parent_id', 'manager_id']).where('id', '=', unitId).executeTakeFirst();
    if (!unit) break;
    if (unit.manager_id && unit.manager_id !== last && unit.manager_id !== userId) {
      out.push(unit.manager_id);
      last = unit.manager_id;
    }
    unitId = unit.parent_id;
  }
  return out;
}

export async function resolveSources(edb: EngineExecutor, sources: ParticipantSource[], context: { originator: string; values: Record<string, unknown> }): Promise<string[]> {
  const found: string[] = [];
  for (const s of sources) {
    switch (s.type) {
      case 'users':
        found.push(...s.ids);
        break;
      case 'roles': {
        const rows = await edb.selectFrom('org_role_members').select('user_id').where('role_id', 'in', s.ids).orderBy('user_id').execute();
        found.push(...rows.map((r) => r.user_id));
        break;
      }
      case 'departments':
        found.push(...(s.pick === 'manager' ? await managersOf(edb, s.ids) : await membersOf(edb, s.ids)));
        break;
      case 'originator':
        found.push(context.originator);
        break;
      case 'originatorManager':
        found.push(...(await managerChain(edb, context.originator, s.levels)));
        break;
      case 'field': {
        const ids = asList(context.values[s.code]);
        if (!ids.length) break;
        // A user field holds user ids, a department field department ids: tell them apart by the org tables.
        const users = await activeUsers(edb, ids);
        const departments = ids.filter((id) => !users.has(id));
        found.push(...ids.filter((id) => users.has(id)));
        if (departments.length) found.push(...(s.pick === 'manager' ? await managersOf(edb, departments) : await membersOf(edb, departments)));
        break;
      }
    }
  }
  const unique = [...new Set(found)];
  const active = await activeUsers(edb, unique);
  return unique.filter((id) => active.has(id));
}

/** The engine's active Administrators: who gets a node nobody was found for. */
export async function administratorsOf(edb: EngineExecutor): Promise<string[]> {
  const rows = await edb.selectFrom('org_users').select('id').where('auth_type', '=', UserAuthType.Administrator).where('state', '=', 'active').orderBy('created_time').execute();
  return rows.map((r) => r.id);
}

/** Users among `ids` that are not active users of the engine. */
export async function unknownUsers(edb: EngineExecutor, ids: string[]): Promise<string[]> {
  const active = await activeUsers(edb, [...new Set(ids)]);
  return ids.filter((id) => !active.has(id));
}
