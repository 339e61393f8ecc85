import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { KnownReferences } from '../business-data/value-references.ts';
import type { Lookups } from './cell-values.ts';

// People by name, mobile or id and departments by name or id, loaded once per task (docs/decisions/0020).

function add(map: Map<string, string[]>, key: string | null | undefined, id: string) {
  if (!key) return;
  const list = map.get(key) ?? [];
  if (!list.includes(id)) list.push(id);
  map.set(key, list);
}

export async function loadLookups(edb: EngineExecutor): Promise<Lookups> {
  const users = await edb.selectFrom('org_users').select(['id', 'name', 'mobile']).execute();
  const departments = await edb.selectFrom('org_units').select(['id', 'name']).where('unit_type', 'in', ['Company', 'OrganizationUnit']).execute();
  const out: Lookups = { users: new Map(), departments: new Map(), userNames: new Map(), departmentNames: new Map() };
  for (const u of users) {
    out.userNames.set(u.id, u.name);
    add(out.users, u.id, u.id);
    add(out.users, u.mobile, u.id);
    add(out.users, u.name, u.id);
  }
  for (const d of departments) {
    out.departmentNames.set(d.id, d.name);
    add(out.departments, d.id, d.id);
    add(out.departments, d.name, d.id);
  }
  return out;
}

/** The ids the lookups hold: the save's existence check of users and departments need not ask again. */
export function knownReferencesOf(lookups: Lookups): KnownReferences {
  return { users: new Set(lookups.userNames.keys()), departments: new Set(lookups.departmentNames.keys()) };
}
