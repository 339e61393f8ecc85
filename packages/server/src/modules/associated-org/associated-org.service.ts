import { randomBytes } from 'node:crypto';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { findAccountById } from '../account/account.repo.ts';
import { createEngine } from '../engine/engine.service.ts';
import { findEngine, findEngineMember } from '../engine/engine.repo.ts';
import { assertEngineUsable } from '../engine/engine-state.ts';
import { isFeatureOn } from '../feature-switch/feature-switch.service.ts';
import { lockOrganisation } from '../org/org.service.ts';
import { activate, activePartnersAmong, findByCode, findOfEngine, insertAssociation, listOfEngine, markEnded, type AssociationRow } from './associated-org.repo.ts';
import { presentAssociation } from './associated-org.presenter.ts';
import { detachMembers } from './associated-members.service.ts';
import { createBoundDepartment, formerDepartment, nowOf, type AssociationDeps } from './bound-department.ts';

export type { AssociationDeps };

const FEATURE = 'associatedOrganization';
const DEFAULT_VALID_DAYS = 7;
const DAY_MS = 86_400_000;

/** calls.md §9: the "associated organisation" feature switch of the engine that receives partners. */
async function assertFeatureOn(db: Db, engineCode: string): Promise<void> {
  if (!(await isFeatureOn(db, engineCode, FEATURE))) throw new AppError('Forbidden', { message: '本组织未开启关联组织功能', detail: { feature: FEATURE } });
}

/** The association as `engineCode` sees it, read again after a change. */
export async function loadAssociation(deps: AssociationDeps, engineCode: string, id: string): Promise<contracts.AssociatedOrgDto> {
  const [row] = await listOfEngine(deps.db, engineCode, id);
  if (!row) throw new AppError('AssociationUnavailable', { detail: { id } });
  return presentAssociation(row, engineCode, nowOf(deps));
}

/** The host's administrator issues a link `/entry/ass-org?associatedCode=…`, usable once before it expires. */
export async function createAssociatedCode(deps: AssociationDeps, host: { engineCode: string; userId: string }, validDays = DEFAULT_VALID_DAYS): Promise<contracts.AssociatedOrgDto> {
  await assertFeatureOn(deps.db, host.engineCode);
  const id = newId();
  const expires = new Date(nowOf(deps).getTime() + validDays * DAY_MS);
  await insertAssociation(deps.db, { id, host_engine_code: host.engineCode, associated_code: randomBytes(18).toString('base64url'), code_expires: expires, created_by: host.userId });
  return loadAssociation(deps, host.engineCode, id);
}

export async function listAssociations(deps: AssociationDeps, engineCode: string): Promise<contracts.AssociatedOrgDto[]> {
  const now = nowOf(deps);
  return (await listOfEngine(deps.db, engineCode)).map((row) => presentAssociation(row, engineCode, now));
}

/** A link that can still be accepted; anything else (unknown, used, withdrawn, expired) is 205001. */
function assertUsable(row: AssociationRow | undefined, now: Date): asserts row is AssociationRow {
  if (!row || row.state !== 'pending' || new Date(row.code_expires).getTime() <= now.getTime()) throw new AppError('AssociatedCodeInvalid');
}

/** The engines the account administers (an active, internal Administrator there). */
async function administeredEngines(db: Db, accountId: string) {
  const memberships = await db
    .selectFrom('platform.memberships as m')
    .innerJoin('platform.engines as e', 'e.engine_code', 'm.engine_code')
    .select(['e.engine_code', 'e.engine_name', 'm.user_id'])
    .where('m.account_id', '=', accountId)
    .where('m.is_external', '=', false)
    .where('e.state', '=', 'normal')
    .orderBy('m.joined_time')
    .execute();
  const out: { engineCode: string; engineName: string }[] = [];
  for (const m of memberships) {
    const user = await engineDb(db, m.engine_code).selectFrom('org_users').select(['auth_type', 'state']).where('id', '=', m.user_id).executeTakeFirst();
    if (user?.auth_type === UserAuthType.Administrator && user.state === 'active') out.push({ engineCode: m.engine_code, engineName: m.engine_name });
  }
  return out;
}

/** What /ass-org shows before accepting: the host's name and the organisations the person could connect. */
export async function associatedCodeInfo(deps: AssociationDeps, accountId: string, code: string): Promise<z.infer<typeof contracts.AssociatedCodeInfo>> {
  const row = await findByCode(deps.db, code);
  assertUsable(row, nowOf(deps));
  const host = (await findEngine(deps.db, row.host_engine_code))!;
  const engines = await administeredEngines(deps.db, accountId);
  const associated = await activePartnersAmong(deps.db, row.host_engine_code, engines.map((e) => e.engineCode));
  return {
    hostEngineName: host.engine_name,
    expiresTime: new Date(row.code_expires).toISOString(),
    organisations: engines.map((e) => ({ ...e, isHost: e.engineCode === row.host_engine_code, isAssociated: associated.has(e.engineCode) })),
  };
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/**
 * The partner's administrator accepts a link with one of the organisations they administer. The host gets an
 * external department named after the partner; the link is used up.
 */
export async function acceptAssociation(deps: AssociationDeps, accountId: string, code: string, engineCode: string): Promise<contracts.AssociatedOrgDto> {
  const now = nowOf(deps);
  let id: string;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      const row = await findByCode(trx, code);
      assertUsable(row, now);
      // Inside the transaction only the transaction is used (one connection on PGlite).
      await assertFeatureOn(trx as unknown as Db, row.host_engine_code);
      if (engineCode === row.host_engine_code) throw new AppError('AssociateWithSelf');
      const member = await findEngineMember(trx, accountId, engineCode);
      if (!member || member.isExternal || member.authType !== UserAuthType.Administrator || member.userState !== 'active') throw new AppError('NotOrganisationAdministrator', { detail: { engineCode } });
      assertEngineUsable(member.engine);
      if ((await activePartnersAmong(trx, row.host_engine_code, [engineCode])).has(engineCode)) throw new AppError('AlreadyAssociated');
      await lockOrganisation(trx, row.host_engine_code);
      const hostEdb = engineDb(trx as unknown as Db, row.host_engine_code);
      // Associating again binds the department of the earlier association, where the partner's former people still are.
      const earlier = await formerDepartment(trx, hostEdb, row.host_engine_code, engineCode);
      const departmentId = earlier ?? (await createBoundDepartment(hostEdb, member.engine.engine_name));
      if (!(await activate(trx, row.id, engineCode, departmentId, now))) throw new AppError('AssociatedCodeInvalid');
      return row.id;
    });
  } catch (error) {
    // Two links of the same host accepted by the same partner at once: the active-pair index lets one through.
    if (isUniqueViolation(error)) throw new AppError('AlreadyAssociated');
    throw error;
  }
  return loadAssociation(deps, engineCode, id);
}

/**
 * /make-org: a person with no organisation of their own creates one (they become its Administrator) and accepts
 * the link with it. The link is checked first, so a bad link creates nothing.
 */
export async function makeOrgAndAccept(deps: AssociationDeps, accountId: string, code: string, engineName: string) {
  assertUsable(await findByCode(deps.db, code), nowOf(deps));
  const account = await findAccountById(deps.db, accountId);
  if (!account || account.state === 'disabled') throw new AppError('UserDisabled');
  const { engineCode } = await createEngine(deps.db, { accountId, engineName, userName: account.name, mobile: account.mobile });
  return { engineCode, association: await acceptAssociation(deps, accountId, code, engineCode) };
}

/**
 * Either side ends an association (the host may also withdraw a pending link). The partner's members lose their
 * membership in the host at once; nothing else of either engine is deleted (their host users stay, disabled).
 */
export async function endAssociation(deps: AssociationDeps, engineCode: string, id: string): Promise<contracts.AssociatedOrgDto> {
  const now = nowOf(deps);
  await deps.db.transaction().execute(async (trx) => {
    const row = await findOfEngine(trx, id, engineCode, true);
    if (!row || row.state === 'ended') throw new AppError('AssociationUnavailable', { detail: { id } });
    if (row.state === 'active') {
      await lockOrganisation(trx, row.host_engine_code);
      await detachMembers(trx, row);
    }
    await markEnded(trx, id, engineCode, now);
  });
  return loadAssociation(deps, engineCode, id);
}
