import type { Db } from '../../db/types.ts';
import { sql } from 'kysely';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { insertUnits, insertUsers, setUserDepartments, updateUnit, updateUser, type EngineExecutor } from '../org/org.repo.ts';
import { lockOrganisation } from '../org/org.service.ts';
import type { PlatformDirectory } from './providers/chat-provider.ts';

// Directory sync (issue 25, docs/decisions/0053): a platform's departments, users and department managers into the
// engine. The plan compares the platform's directory with what earlier syncs bound (org_unit_identities,
// org_user_identities) and with the engine's own people (matched by mobile number), and holds only differences, so
// a second sync writes only what changed. Nothing is ever deleted: users who exist only locally are not touched; a
// bound user who left the platform (or is inactive there) is disabled; a department gone from the platform is kept.

const CHUNK = 1000;
const SAMPLE = 20;

interface UnitChange {
  id: string;
  subject: string;
  name: string;
  parentId: string;
}

interface UserCreate {
  id: string;
  subject: string;
  name: string;
  mobile: string;
  email: string | null;
  employeeNo: string | null;
  departmentIds: string[];
}

interface UserUpdate {
  id: string;
  subject: string;
  /** The user's number (kept: the search keys are made from name and number). */
  mobile: string;
  bind: boolean;
  fields: { name?: string; email?: string | null; employee_no?: string | null; state?: 'active' };
  departmentIds?: string[];
}

export interface SyncPlan {
  createUnits: UnitChange[];
  bindUnits: { id: string; subject: string }[];
  updateUnits: UnitChange[];
  createUsers: UserCreate[];
  updateUsers: UserUpdate[];
  disableUsers: string[];
  managers: { unitId: string; managerId: string }[];
  /** Platform users without a mobile number and not bound yet: they cannot be matched or invited. */
  skipped: { subject: string; name: string }[];
  unchangedUnits: number;
  unchangedUsers: number;
}

export interface SyncSummary {
  departments: { created: number; updated: number; bound: number; unchanged: number };
  users: { created: number; updated: number; bound: number; disabled: number; unchanged: number; skipped: number };
  managers: { updated: number };
  /** A few of each change, for the preview and the log. */
  samples: { createdDepartments: string[]; updatedDepartments: string[]; createdUsers: string[]; updatedUsers: string[]; disabledUsers: string[]; skippedUsers: string[] };
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Compares the platform's directory with the engine: the changes a sync would make. With `part` the directory is only
 * what change events named (an incremental sync, decision 0077): departments not in it are found by their bindings,
 * and only the people it says are gone are disabled, never those it merely does not list.
 */
export async function planSync(edb: EngineExecutor, companyId: string, provider: string, directory: PlatformDirectory, part?: { goneUsers: string[] }): Promise<SyncPlan> {
  const [unitBindings, userBindings, units, users, memberships] = await Promise.all([
    edb.selectFrom('org_unit_identities').select(['subject', 'unit_id']).where('provider', '=', provider).execute(),
    edb.selectFrom('org_user_identities').select(['subject', 'user_id']).where('provider', '=', provider).execute(),
    edb.selectFrom('org_units').select(['id', 'parent_id', 'name', 'manager_id']).where('unit_type', 'in', ['Company', 'OrganizationUnit']).where('is_external', '=', false).execute(),
    edb.selectFrom('org_users').select(['id', 'name', 'mobile', 'email', 'employee_no', 'main_department_id', 'state']).execute(),
    edb.selectFrom('org_user_departments').select(['user_id', 'department_id', 'is_main']).execute(),
  ]);
  const unitOf = new Map(unitBindings.map((b) => [b.subject, b.unit_id]));
  const unitById = new Map(units.map((u) => [u.id, u]));
  const boundUnitIds = new Set(unitBindings.map((b) => b.unit_id));
  const plan: SyncPlan = { createUnits: [], bindUnits: [], updateUnits: [], createUsers: [], updateUsers: [], disableUsers: [], managers: [], skipped: [], unchangedUnits: 0, unchangedUsers: 0 };

  // Departments, parents first: the platform's root is the company.
  const localUnit = new Map<string, string>(part ? unitOf : []);
  const childrenByName = new Map<string, string>();
  for (const u of units) if (u.parent_id && !boundUnitIds.has(u.id)) childrenByName.set(`${u.parent_id}|${u.name}`, u.id);
  for (const d of directory.departments) {
    if (d.parentId === null) {
      localUnit.set(d.id, companyId);
      continue;
    }
    const parentId = localUnit.get(d.parentId) ?? companyId;
    let id = unitOf.get(d.id);
    if (!id) {
      // A department the administrator already made under the same parent with the same name is the same one.
      const typed = childrenByName.get(`${parentId}|${d.name}`);
      if (typed) {
        childrenByName.delete(`${parentId}|${d.name}`);
        plan.bindUnits.push({ id: typed, subject: d.id });
        id = typed;
      } else {
        id = newId();
        plan.createUnits.push({ id, subject: d.id, name: d.name, parentId });
        localUnit.set(d.id, id);
        continue;
      }
    }
    localUnit.set(d.id, id);
    const current = unitById.get(id);
    if (current && (current.name !== d.name || current.parent_id !== parentId)) plan.updateUnits.push({ id, subject: d.id, name: d.name, parentId });
    else if (current) plan.unchangedUnits++;
  }

  // Users: by binding, else by mobile number; the rest are created (when they have a number).
  const userOf = new Map(userBindings.map((b) => [b.subject, b.user_id]));
  const boundUserIds = new Set(userBindings.map((b) => b.user_id));
  const userById = new Map(users.map((u) => [u.id, u]));
  const byMobile = new Map(users.filter((u) => !boundUserIds.has(u.id)).map((u) => [u.mobile, u.id]));
  const departmentsOf = new Map<string, string[]>();
  for (const m of memberships) {
    const list = departmentsOf.get(m.user_id) ?? [];
    if (m.is_main) list.unshift(m.department_id);
    else list.push(m.department_id);
    departmentsOf.set(m.user_id, list);
  }
  const seen = new Set<string>();
  const localUser = new Map<string, string>();
  for (const p of directory.users) {
    seen.add(p.id);
    const wanted = [...new Set(p.departmentIds.map((d) => localUnit.get(d)).filter((d): d is string => !!d))];
    const departmentIds = wanted.length ? wanted : [companyId];
    let id = userOf.get(p.id);
    let bind = false;
    if (!id && p.mobile) {
      id = byMobile.get(p.mobile);
      if (id) {
        byMobile.delete(p.mobile);
        bind = true;
      }
    }
    if (!id) {
      if (!p.active) continue;
      if (!p.mobile) {
        plan.skipped.push({ subject: p.id, name: p.name });
        continue;
      }
      id = newId();
      plan.createUsers.push({ id, subject: p.id, name: p.name, mobile: p.mobile, email: p.email ?? null, employeeNo: p.employeeNo ?? null, departmentIds });
      localUser.set(p.id, id);
      continue;
    }
    localUser.set(p.id, id);
    const current = userById.get(id);
    if (!current) continue;
    if (!p.active) {
      if (current.state === 'active') plan.disableUsers.push(id);
      if (bind) plan.updateUsers.push({ id, subject: p.id, mobile: current.mobile, bind, fields: {} });
      continue;
    }
    const fields: UserUpdate['fields'] = {};
    if (current.name !== p.name) fields.name = p.name;
    if ((current.email ?? null) !== (p.email ?? null) && p.email) fields.email = p.email;
    if ((current.employee_no ?? null) !== (p.employeeNo ?? null) && p.employeeNo) fields.employee_no = p.employeeNo;
    if (current.state !== 'active' && boundUserIds.has(id)) fields.state = 'active';
    const changedDepartments = !sameSet(departmentsOf.get(id) ?? [], departmentIds);
    if (bind || Object.keys(fields).length || changedDepartments) {
      plan.updateUsers.push({ id, subject: p.id, mobile: current.mobile, bind, fields, ...(changedDepartments ? { departmentIds } : {}) });
    } else plan.unchangedUsers++;
  }
  const gone = part ? new Set(part.goneUsers) : undefined;
  for (const b of userBindings) {
    const left = gone ? gone.has(b.subject) : !seen.has(b.subject);
    if (left && userById.get(b.user_id)?.state === 'active') plan.disableUsers.push(b.user_id);
  }

  // Managers: the platform's leader of each department (the first one it names).
  const leaderOf = new Map<string, string>();
  for (const p of directory.users) for (const d of p.leaderOf) if (!leaderOf.has(d) && localUser.get(p.id)) leaderOf.set(d, localUser.get(p.id)!);
  for (const [subject, managerId] of leaderOf) {
    const unitId = localUnit.get(subject);
    if (unitId && unitById.get(unitId)?.manager_id !== managerId) plan.managers.push({ unitId, managerId });
  }
  return plan;
}

export function summarise(plan: SyncPlan): SyncSummary {
  const names = <T>(list: T[], name: (x: T) => string) => list.slice(0, SAMPLE).map(name);
  return {
    departments: { created: plan.createUnits.length, updated: plan.updateUnits.length, bound: plan.bindUnits.length, unchanged: plan.unchangedUnits },
    users: {
      created: plan.createUsers.length,
      updated: plan.updateUsers.filter((u) => !u.bind || Object.keys(u.fields).length || u.departmentIds).length,
      bound: plan.updateUsers.filter((u) => u.bind).length,
      disabled: plan.disableUsers.length,
      unchanged: plan.unchangedUsers,
      skipped: plan.skipped.length,
    },
    managers: { updated: plan.managers.length },
    samples: {
      createdDepartments: names(plan.createUnits, (u) => u.name),
      updatedDepartments: names(plan.updateUnits, (u) => u.name),
      createdUsers: names(plan.createUsers, (u) => u.name),
      updatedUsers: names(plan.updateUsers, (u) => u.fields.name ?? u.subject),
      disabledUsers: plan.disableUsers.slice(0, SAMPLE),
      skippedUsers: names(plan.skipped, (u) => u.name),
    },
  };
}

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Writes a plan in one transaction under the organisation lock; set-wise where the changes are many. */
export async function applyPlan(db: Db, engineCode: string, provider: string, plan: SyncPlan): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockOrganisation(trx, engineCode);
    const edb = engineDb(trx as unknown as Db, engineCode);
    const schema = engineSchemaName(engineCode);
    for (const part of chunks(plan.createUnits)) await insertUnits(edb, part.map((u) => ({ id: u.id, parent_id: u.parentId, unit_type: 'OrganizationUnit', name: u.name })));
    const unitBindings = [...plan.createUnits.map((u) => ({ provider, subject: u.subject, unit_id: u.id })), ...plan.bindUnits.map((u) => ({ provider, subject: u.subject, unit_id: u.id }))];
    for (const part of chunks(unitBindings)) await edb.insertInto('org_unit_identities').values(part).execute();
    for (const u of plan.updateUnits) await updateUnit(edb, u.id, { name: u.name, parent_id: u.parentId });

    for (const part of chunks(plan.createUsers)) {
      await insertUsers(edb, part.map((u) => ({ id: u.id, account_id: null, name: u.name, mobile: u.mobile, auth_type: 3, is_external: false, main_department_id: u.departmentIds[0]! })));
      const extra = part.flatMap((u) => u.departmentIds.slice(1).map((d) => ({ user_id: u.id, department_id: d, is_main: false })));
      if (extra.length) await edb.insertInto('org_user_departments').values(extra).execute();
      const details = part.filter((u) => u.email || u.employeeNo).map((u) => ({ id: u.id, email: u.email, no: u.employeeNo }));
      // E-mail and employee number of the whole chunk in one statement (insertUsers writes the common columns).
      if (details.length) {
        await sql`update ${sql.table(`${schema}.org_users`)} u set email = v.email, employee_no = v.no
          from jsonb_to_recordset(${JSON.stringify(details)}::jsonb) as v(id text, email text, no text) where u.id = v.id`.execute(trx);
      }
      await edb.insertInto('org_user_identities').values(part.map((u) => ({ provider, subject: u.subject, user_id: u.id }))).execute();
      // The numbers that have an account join at once; the others are invitations their first sign-in claims.
      const accounts = await trx.selectFrom('platform.accounts').select(['id', 'mobile']).where('mobile', 'in', part.map((u) => u.mobile)).execute();
      const accountOf = new Map(accounts.map((a) => [a.mobile, a.id]));
      const joined = part.filter((u) => accountOf.has(u.mobile));
      for (const u of joined) await edb.updateTable('org_users').set({ account_id: accountOf.get(u.mobile)! }).where('id', '=', u.id).execute();
      if (joined.length) {
        await trx
          .insertInto('platform.memberships')
          .values(joined.map((u) => ({ account_id: accountOf.get(u.mobile)!, engine_code: engineCode, user_id: u.id, is_external: false })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      const invited = part.filter((u) => !accountOf.has(u.mobile));
      if (invited.length) await trx.insertInto('platform.invitations').values(invited.map((u) => ({ engine_code: engineCode, mobile: u.mobile, user_id: u.id }))).execute();
    }

    const binds = plan.updateUsers.filter((u) => u.bind);
    for (const part of chunks(binds)) await edb.insertInto('org_user_identities').values(part.map((u) => ({ provider, subject: u.subject, user_id: u.id }))).onConflict((oc) => oc.doNothing()).execute();
    for (const u of plan.updateUsers) {
      const { employee_no, ...fields } = u.fields;
      // The name goes through the organisation's own write, which keeps the search keys (pinyin) in step.
      if (Object.keys(fields).length) await updateUser(edb, { id: u.id, name: u.fields.name ?? '', mobile: u.mobile }, fields);
      if (employee_no !== undefined) await edb.updateTable('org_users').set({ employee_no }).where('id', '=', u.id).execute();
      if (u.departmentIds) await setUserDepartments(edb, u.id, u.departmentIds, u.departmentIds[0]!);
    }
    for (const part of chunks(plan.disableUsers)) await edb.updateTable('org_users').set({ state: 'disabled' }).where('id', 'in', part).execute();
    for (const part of chunks(plan.managers)) {
      await sql`update ${sql.table(`${schema}.org_units`)} u set manager_id = v.manager
        from jsonb_to_recordset(${JSON.stringify(part.map((m) => ({ id: m.unitId, manager: m.managerId })))}::jsonb) as v(id text, manager text) where u.id = v.id`.execute(trx);
    }
  });
}
