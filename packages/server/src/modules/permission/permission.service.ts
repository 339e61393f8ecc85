import { randomUUID } from 'node:crypto';
import type { contracts } from '@tritium/shared';
import { MAX_PERMISSION_GROUPS } from '@tritium/shared/constants/permissions';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { engineOf, inEngineTransaction, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { recordOperation } from '../audit/oplog.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { getFormNodeOrThrow } from '../form-design/form-access.ts';
import { publishedFormOf } from '../form-design/published-forms.ts';
import { definitionOf } from '../form-design/form-design.service.ts';
import { formModelOf } from '../form-design/form-model.ts';
import { deleteGroup, insertGroup, listGroups, updateGroup, type PermissionGroup } from './permission-groups.repo.ts';

// Editing a form's permission groups (docs/decisions/0037): the administrators of the form's app only (engine
// administrators and the app's sub-administrators). What the groups grant is decided by form-rights.ts.

/** The form, administered by the caller and published (groups name the published fields). */
async function administeredForm(ctx: NodeContext, schemaCode: string) {
  const edb = engineOf(ctx);
  const viewer = await viewerOf(edb, ctx);
  const node = await getFormNodeOrThrow(edb, viewer, schemaCode, 'administer');
  const published = await publishedFormOf(edb, { ...viewer, context: undefined }, node);
  if (!published) throw new AppError('FormNotPublished', { detail: { schemaCode } });
  return { edb, node, definition: definitionOf(published.definition) };
}

export async function listPermissionGroups(ctx: NodeContext, schemaCode: string): Promise<contracts.PermissionGroupListResult> {
  const { edb, node } = await administeredForm(ctx, schemaCode);
  const list = await listGroups(edb, node.code);
  const users = [...new Set(list.flatMap((g) => g.members.users))];
  const units = [...new Set(list.flatMap((g) => [...g.members.departments, ...g.members.roles]))];
  const names: Record<string, string> = {};
  if (users.length) for (const r of await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', users).execute()) names[r.id] = r.name;
  if (units.length) for (const r of await edb.selectFrom('org_units').select(['id', 'name']).where('id', 'in', units).execute()) names[r.id] = r.name;
  return { schemaCode: node.code, list, names };
}

/** Field codes a group may name: data fields, sub-tables, and sub-table columns as `Grid.Column`. */
function fieldCodesOf(definition: contracts.FormDefinition): Set<string> {
  const model = formModelOf(definition);
  return new Set([...model.columns.map((c) => c.code), ...model.children.flatMap((g) => [g.code, ...g.columns.map((c) => `${g.code}.${c.code}`)])]);
}

/** Users, departments and roles a group names must be this engine's (777 naming each one that is not). */
async function checkMembers(edb: EngineExecutor, members: PermissionGroup['members']): Promise<void> {
  const issues: { path: string; message: string }[] = [];
  const check = async (kind: 'users' | 'departments' | 'roles', ids: string[]) => {
    if (!ids.length) return;
    const found = kind === 'users'
      ? await edb.selectFrom('org_users').select('id').where('id', 'in', ids).execute()
      : await edb.selectFrom('org_units').select('id').where('id', 'in', ids).where('unit_type', 'in', kind === 'roles' ? ['Role'] : ['Company', 'OrganizationUnit']).execute();
    const known = new Set(found.map((r) => r.id));
    ids.forEach((id, i) => known.has(id) || issues.push({ path: `group.members.${kind}.${i}`, message: `${kind === 'users' ? '人员' : kind === 'roles' ? '角色' : '部门'}不存在：${id}` }));
  };
  await check('users', members.users);
  await check('departments', members.departments);
  await check('roles', members.roles);
  if (issues.length) throw parameterError(issues);
}

export async function savePermissionGroup(ctx: NodeContext, body: { schemaCode: string; group: contracts.PermissionGroupInput }): Promise<PermissionGroup> {
  const { edb, node, definition } = await administeredForm(ctx, body.schemaCode);
  const group = body.group as PermissionGroup;
  const codes = fieldCodesOf(definition);
  const unknown = Object.keys(group.fieldRights ?? {}).filter((code) => !codes.has(code));
  if (unknown.length) throw parameterError(unknown.map((code) => ({ path: `group.fieldRights.${code}`, message: `表单没有字段 ${code}` })));
  await checkMembers(edb, group.members);
  const actions = [...new Set(group.actions)];
  const existing = await listGroups(edb, node.code);
  if (group.id) {
    const current = existing.find((g) => g.id === group.id);
    if (!current) throw new AppError('PermissionGroupNotFound', { detail: { id: group.id } });
    const saved = { ...group, actions, id: group.id, sortKey: current.sortKey };
    return inEngineTransaction(ctx, async (tx) => {
      if (!(await updateGroup(tx, node.code, saved))) throw new AppError('PermissionGroupNotFound', { detail: { id: group.id } });
      await recordOperation(tx, ctx, { kind: 'permissionGroup', action: 'update', objectId: saved.id, objectName: logName(node, saved), before: current, after: saved });
      return saved;
    });
  }
  if (existing.length >= MAX_PERMISSION_GROUPS) throw new AppError('PermissionGroupLimit', { detail: { max: MAX_PERMISSION_GROUPS } });
  const saved = { ...group, actions, id: randomUUID(), sortKey: (existing.at(-1)?.sortKey ?? 0) + 1 };
  return inEngineTransaction(ctx, async (tx) => {
    await insertGroup(tx, node.code, saved.id, saved);
    await recordOperation(tx, ctx, { kind: 'permissionGroup', action: 'create', objectId: saved.id, objectName: logName(node, saved), before: null, after: saved });
    return saved;
  });
}

/** How the operation log names a group: the form's name and the group's. */
const logName = (node: { display_name: string; code: string }, group: { name: string }) => `${node.display_name || node.code} / ${group.name}`;

export async function removePermissionGroup(ctx: NodeContext, body: { schemaCode: string; id: string }): Promise<{ removed: boolean }> {
  const { edb, node } = await administeredForm(ctx, body.schemaCode);
  const current = (await listGroups(edb, node.code)).find((g) => g.id === body.id);
  return inEngineTransaction(ctx, async (tx) => {
    if (!(await deleteGroup(tx, node.code, body.id))) throw new AppError('PermissionGroupNotFound', { detail: { id: body.id } });
    await recordOperation(tx, ctx, { kind: 'permissionGroup', action: 'remove', objectId: body.id, objectName: current ? logName(node, current) : null, before: current ?? null, after: null });
    return { removed: true };
  });
}
