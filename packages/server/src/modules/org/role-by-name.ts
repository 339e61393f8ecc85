import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { createRole, createRoleGroup } from './role.service.ts';

// A role named by something brought in from elsewhere — a built-in template's flow (docs/decisions/0132), an app
// package's flows and permission groups (0130): the organisation's role of that name when it has one, else a new one
// (no members yet: until the administrator adds people, a flow's "nobody found" rule gives its items to the
// administrators) in a role group kept for such roles.

const GROUP_NAME = '审批角色';

/** The id of the role called `name`, made (in the group 审批角色) when the organisation has none. */
export async function roleNamed(ctx: { db: Db; engineCode: string; userId: string }, name: string): Promise<string> {
  const edb = engineDb(ctx.db, ctx.engineCode);
  const found = await edb.selectFrom('org_units').select('id').where('unit_type', '=', 'Role').where('name', '=', name).orderBy('sort_key').executeTakeFirst();
  if (found) return found.id;
  const engine = await ctx.db.selectFrom('platform.engines').select('company_id').where('engine_code', '=', ctx.engineCode).executeTakeFirstOrThrow();
  const org = { db: ctx.db, engineCode: ctx.engineCode, companyId: engine.company_id, userId: ctx.userId };
  const group = await edb.selectFrom('org_units').select('id').where('unit_type', '=', 'RoleGroup').where('name', '=', GROUP_NAME).executeTakeFirst();
  const groupId = group?.id ?? (await createRoleGroup(org, GROUP_NAME)).id;
  return (await createRole(org, contracts.CreateRoleBody.parse({ groupId, name }))).id;
}
