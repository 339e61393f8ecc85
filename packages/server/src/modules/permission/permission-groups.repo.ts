import type { Kysely } from 'kysely';
import type { contracts } from '@tritium/shared';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { ContextSnapshot } from '../request-context/context.ts';

// A form's permission groups (docs/decisions/0037): read through the request context's cache, which the 'forms'
// version guards (the table's trigger bumps it), written by the permission service.

export type PermissionGroup = contracts.PermissionGroup;

type GroupRow = {
  id: string;
  name: string;
  members: PermissionGroup['members'];
  actions: string[];
  view_scope: string;
  edit_scope: string;
  field_rights: Record<string, string>;
  sort_key: number;
};

const groupOf = (r: GroupRow): PermissionGroup => ({
  id: r.id,
  name: r.name,
  members: { users: r.members.users ?? [], departments: r.members.departments ?? [], roles: r.members.roles ?? [] },
  actions: r.actions as PermissionGroup['actions'],
  viewScope: r.view_scope as PermissionGroup['viewScope'],
  editScope: r.edit_scope as PermissionGroup['editScope'],
  fieldRights: r.field_rights as PermissionGroup['fieldRights'],
  sortKey: r.sort_key,
});

/** The groups of a form in their order, from the table. */
export async function listGroups(edb: EngineExecutor, schemaCode: string): Promise<PermissionGroup[]> {
  const rows = await edb
    .selectFrom('form_permission_groups')
    .select(['id', 'name', 'members', 'actions', 'view_scope', 'edit_scope', 'field_rights', 'sort_key'])
    .where('schema_code', '=', schemaCode)
    .orderBy('sort_key')
    .orderBy('created_time')
    .execute();
  return rows.map((r) => groupOf(r as GroupRow));
}

/** The groups of a form as a request sees them: from the cache while the engine's 'forms' version holds. */
export function groupsOfForm(edb: EngineExecutor, context: ContextSnapshot | undefined, schemaCode: string): Promise<PermissionGroup[]> {
  if (!context || context.changing) return listGroups(edb, schemaCode);
  return context.caches.permissionGroups.get(context.engineCode, context.formsVersion, schemaCode, () => listGroups(edb, schemaCode)) as Promise<PermissionGroup[]>;
}

const columns = (schemaCode: string, g: contracts.PermissionGroupInput & { members: PermissionGroup['members'] }) => ({
  schema_code: schemaCode,
  name: g.name,
  members: JSON.stringify(g.members),
  actions: JSON.stringify(g.actions),
  view_scope: g.viewScope,
  edit_scope: g.editScope,
  field_rights: JSON.stringify(g.fieldRights ?? {}),
});

export async function insertGroup(edb: EngineExecutor, schemaCode: string, id: string, group: PermissionGroup): Promise<void> {
  await edb.insertInto('form_permission_groups').values({ id, ...columns(schemaCode, group), sort_key: group.sortKey }).execute();
}

export async function updateGroup(edb: EngineExecutor, schemaCode: string, group: PermissionGroup): Promise<boolean> {
  const result = await edb
    .updateTable('form_permission_groups')
    .set({ ...columns(schemaCode, group), modified_time: new Date() })
    .where('id', '=', group.id)
    .where('schema_code', '=', schemaCode)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteGroup(edb: EngineExecutor, schemaCode: string, id: string): Promise<boolean> {
  const result = await edb.deleteFrom('form_permission_groups').where('id', '=', id).where('schema_code', '=', schemaCode).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

