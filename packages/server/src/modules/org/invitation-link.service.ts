import { createHash, randomBytes } from 'node:crypto';
import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { assertEngineUsable, findEngine } from '../request-context/engine-state.ts';
import { findUnit, findUserByMobile, insertUsers, isDepartment, updateUser } from './org.repo.ts';
import { assertDepartment, assertSameScope, resolveAuthType } from './org.policy.ts';
import { engineOf, lockOrganisation, type OrgContext } from './org.service.ts';
import { countJoin, findLinkByHash, insertLink, listLinksOfEngine, namesOf, revokeLink, type InvitationLinkRow } from './invitation-link.repo.ts';

type Dto = contracts.InvitationLinkDto;

const DAY_MS = 86_400_000;
/** The web page a link opens (packages/web features/entry, route join/:token). */
export const JOIN_PATH = '/entry/join/';

/** Only the token's SHA-256 is stored: a copy of the database lets nobody join. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function stateOf(row: InvitationLinkRow, now: Date): Dto['state'] {
  if (row.revoked_time) return 'revoked';
  return new Date(row.expires_time).getTime() <= now.getTime() ? 'expired' : 'active';
}

async function present(ctx: OrgContext, rows: InvitationLinkRow[]): Promise<Dto[]> {
  const names = await namesOf(engineOf(ctx), [...new Set(rows.map((r) => r.department_id))], [...new Set(rows.map((r) => r.created_by))]);
  const now = new Date();
  const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
  return rows.map((r) => ({
    id: r.id,
    state: stateOf(r, now),
    departmentId: r.department_id,
    departmentName: names.get(r.department_id) ?? null,
    creatorName: names.get(r.created_by) ?? null,
    expiresTime: iso(r.expires_time)!,
    createdTime: iso(r.created_time)!,
    revokedTime: iso(r.revoked_time),
    joinCount: Number(r.join_count),
  }));
}

async function loadLink(ctx: OrgContext, id: string): Promise<Dto> {
  const [row] = await listLinksOfEngine(ctx.db, ctx.engineCode, id);
  if (!row) throw new AppError('InvitationLinkNotFound', { detail: { id } });
  return (await present(ctx, [row]))[0];
}

/** An Administrator issues a link into one internal department (default: the company root). */
export async function createInvitationLink(ctx: OrgContext, input: z.output<typeof contracts.CreateInvitationLinkBody>): Promise<z.infer<typeof contracts.CreatedInvitationLink>> {
  const departmentId = input.departmentId ?? ctx.companyId;
  const department = await findUnit(engineOf(ctx), departmentId);
  assertDepartment(department, departmentId);
  // A link makes internal members; external people come through associations (0091).
  assertSameScope(false, [department]);
  const token = randomBytes(32).toString('base64url');
  const id = newId();
  const expires = new Date(Date.now() + input.validDays * DAY_MS);
  await insertLink(ctx.db, { id, engine_code: ctx.engineCode, token_hash: hashToken(token), department_id: departmentId, created_by: ctx.userId, expires_time: expires });
  return { ...(await loadLink(ctx, id)), token, link: `${JOIN_PATH}${token}` };
}

export async function listInvitationLinks(ctx: OrgContext): Promise<Dto[]> {
  return present(ctx, await listLinksOfEngine(ctx.db, ctx.engineCode));
}

/** Turns a link off at once; turning off a link that is off already changes nothing. */
export async function revokeInvitationLink(ctx: OrgContext, id: string): Promise<Dto> {
  await revokeLink(ctx.db, ctx.engineCode, id, ctx.userId, new Date());
  return loadLink(ctx, id);
}

/** A link that can still be used; otherwise why not (unknown, turned off, expired). */
function assertUsable(row: InvitationLinkRow | undefined): asserts row is InvitationLinkRow {
  if (!row) throw new AppError('InvitationLinkNotFound');
  const state = stateOf(row, new Date());
  if (state === 'revoked') throw new AppError('InvitationLinkRevoked');
  if (state === 'expired') throw new AppError('InvitationLinkExpired');
}

/** What the person who opened a link sees: the organisation, who invited them, the department. */
export async function invitationLinkInfo(db: Db, token: string): Promise<z.infer<typeof contracts.InvitationLinkInfo>> {
  const row = await findLinkByHash(db, hashToken(token));
  assertUsable(row);
  const engine = await findEngine(db, row.engine_code);
  if (!engine) throw new AppError('InvitationLinkNotFound');
  assertEngineUsable(engine);
  const names = await namesOf(engineDb(db, row.engine_code), [row.department_id], [row.created_by]);
  return {
    engineName: engine.engine_name,
    inviterName: names.get(row.created_by) ?? null,
    departmentName: names.get(row.department_id) ?? null,
    expiresTime: new Date(row.expires_time).toISOString(),
  };
}

/** Checks a token before anything else is done for it (an account made, a code spent). */
export async function assertInvitationLinkUsable(db: Db, token: string): Promise<void> {
  await invitationLinkInfo(db, token);
}

export interface JoiningAccount {
  id: string;
  mobile: string;
  name: string;
}

/**
 * The account joins the link's engine: as the user an administrator already added for its number (not yet joined),
 * or as a new member of the link's department. A member already changes nothing. One transaction under the
 * organisation lock, with the link row held, so a link turned off meanwhile lets nobody in.
 */
export async function joinByInvitationLink(db: Db, token: string, account: JoiningAccount): Promise<{ engineCode: string; alreadyMember: boolean }> {
  return db.transaction().execute(async (trx) => {
    const row = await findLinkByHash(trx, hashToken(token), true);
    assertUsable(row);
    const engineCode = row.engine_code;
    const engine = await findEngine(trx, engineCode);
    if (!engine) throw new AppError('InvitationLinkNotFound');
    assertEngineUsable(engine);
    await lockOrganisation(trx, engineCode);
    const membership = await trx.selectFrom('platform.memberships').select('user_id').where('account_id', '=', account.id).where('engine_code', '=', engineCode).executeTakeFirst();
    if (membership) return { engineCode, alreadyMember: true };
    const edb = engineDb(trx as unknown as Db, engineCode);
    const existing = await findUserByMobile(edb, account.mobile);
    let user: { id: string; is_external: boolean };
    if (existing) {
      // A user who joined once and was taken out again does not come back through a public link.
      if (existing.account_id !== null) throw new AppError('MobileAlreadyInEngine');
      if (existing.state === 'disabled') throw new AppError('UserDisabled');
      await updateUser(edb, existing, { account_id: account.id });
      await trx.deleteFrom('platform.invitations').where('engine_code', '=', engineCode).where('user_id', '=', existing.id).execute();
      user = existing;
    } else {
      const department = await findUnit(edb, row.department_id);
      // The department was removed since: the company root takes the newcomer.
      const departmentId = department && isDepartment(department) && !department.is_external ? department.id : engine.company_id;
      user = { id: newId(), is_external: false };
      await insertUsers(edb, [{ ...user, account_id: account.id, name: account.name, mobile: account.mobile, auth_type: resolveAuthType(false, undefined), main_department_id: departmentId }]);
    }
    await trx.insertInto('platform.memberships').values({ account_id: account.id, engine_code: engineCode, user_id: user.id, is_external: user.is_external }).execute();
    await countJoin(trx, row.id);
    return { engineCode, alreadyMember: false };
  });
}
