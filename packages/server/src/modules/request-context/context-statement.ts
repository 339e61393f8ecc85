import { sql } from 'kysely';
import type { Db, EngineRow } from '../../db/types.ts';
import { engineSchemaName } from '../../db/database.ts';
import { PREPARED } from '../../db/pipelined-transaction.ts';

// The one statement of context a request costs (docs/decisions/0032): the revocation of its token, the account, and
// with an engine the engine, the membership, the user, the user's roles and the engine's cache versions — read
// together, so a revoked token, a disabled account, user or engine is refused on the very next request, from any
// server process, with no notification to wait for.

export interface AccountPart {
  id: string;
  state: 'active' | 'disabled';
  tokens_valid_after: Date;
  last_engine_code: string | null;
  revoked: boolean;
}

export interface EnginePart {
  /** undefined: no engine of that code */
  engine?: EngineRow;
  /** undefined: not a member (or no user record) */
  member?: { userId: string; isExternal: boolean; userName: string; mobile: string; authType: number; userState: 'active' | 'disabled'; roleIds: string[]; mainDepartmentId: string | null };
  nodesVersion: number;
  formsVersion: number;
}

// Every request runs one of these: prepared once per connection, so PostgreSQL stops planning it (docs/decisions/0104).
const prepared = sql.raw(PREPARED);
const revoked = (jti: string) => sql<boolean>`exists (select 1 from platform.revoked_tokens r where r.jti = ${jti})`;
/** The engine's cache version of a concept, as a subquery (for statements that read it with other things). */
export const version = (engineCode: string, concept: string) =>
  sql<string>`coalesce((select v.version from platform.context_versions v where v.engine_code = ${engineCode} and v.concept = ${concept}), 0)`;

/**
 * The org units a user acts through besides themself (docs/decisions/0004, issue 19): their roles, and their
 * departments with every department above (a grant to a department covers the departments below it). `u` is the
 * user row of the statement. The snapshot calls them roleIds; grants and permission groups match them alike.
 */
export const memberUnits = (schema: string) => sql`array(
  with recursive up(id) as (
    select ud.department_id::text from ${sql.table(`${schema}.org_user_departments`)} ud where ud.user_id = u.id
    union
    select o.parent_id::text from ${sql.table(`${schema}.org_units`)} o join up on o.id = up.id where o.parent_id is not null
  )
  select rm.role_id::text from ${sql.table(`${schema}.org_role_members`)} rm where rm.user_id = u.id
  union
  select id from up)`;

/** The engine row as to_jsonb gave it: dates come back as text. */
function engineOf(json: Record<string, unknown> | null): EngineRow | undefined {
  if (!json) return undefined;
  const row = { ...json } as Record<string, unknown>;
  row.created_time = new Date(row.created_time as string);
  if (row.license_expires) row.license_expires = new Date(row.license_expires as string);
  return row as unknown as EngineRow;
}

/** The account behind a token and whether the token is revoked; undefined when the account does not exist. */
export async function readAccount(db: Db, accountId: string, jti: string): Promise<AccountPart | undefined> {
  const { rows } = await sql<AccountPart>`
    select a.id, a.state, a.tokens_valid_after, a.last_engine_code, ${revoked(jti)} as revoked
    from platform.accounts a where a.id = ${accountId}${prepared}`.execute(db);
  return rows[0];
}

/** An invalid engine code, or one whose schema is gone, is an engine that does not exist. */
function isMissingSchema(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '42P01' || code === '3F000';
}

/** Runs `read` with the engine's schema name; 'no-engine' when the code names no engine schema (bad code, or none). */
async function inEngineSchema<T>(engineCode: string, read: (schema: string) => Promise<T>): Promise<T | 'no-engine'> {
  let schema: string;
  try {
    schema = engineSchemaName(engineCode);
  } catch {
    return 'no-engine';
  }
  try {
    return await read(schema);
  } catch (error) {
    if (isMissingSchema(error)) return 'no-engine';
    throw error;
  }
}

/**
 * The account and its standing in one engine, in one statement; undefined when the account does not exist, and
 * `engine: 'missing'` when the engine code names no engine schema.
 */
export async function readAccountInEngine(db: Db, accountId: string, jti: string, engineCode: string): Promise<(AccountPart & EnginePart) | undefined | 'no-engine'> {
  return inEngineSchema(engineCode, async (schema) => {
    const { rows } = await sql<Record<string, any>>`
      select a.id, a.state, a.tokens_valid_after, a.last_engine_code, ${revoked(jti)} as revoked,
        to_jsonb(e) as engine, m.user_id, m.is_external, u.id as u_id, u.name as user_name, u.mobile as user_mobile, u.auth_type, u.state as user_state, u.main_department_id,
        case when u.id is null then null
          else ${memberUnits(schema)} end as role_ids,
        ${version(engineCode, 'nodes')} as nodes_version, ${version(engineCode, 'forms')} as forms_version
      from platform.accounts a
      left join platform.engines e on e.engine_code = ${engineCode}
      left join platform.memberships m on m.account_id = a.id and m.engine_code = e.engine_code
      left join ${sql.table(`${schema}.org_users`)} u on u.id = m.user_id
      where a.id = ${accountId}${prepared}`.execute(db);
    const r = rows[0];
    if (!r) return undefined;
    return {
      id: r.id,
      state: r.state,
      tokens_valid_after: r.tokens_valid_after,
      last_engine_code: r.last_engine_code,
      revoked: r.revoked,
      engine: engineOf(r.engine),
      member: r.user_id && r.u_id
        ? { userId: r.user_id, isExternal: r.is_external, userName: r.user_name, mobile: r.user_mobile, authType: r.auth_type, userState: r.user_state, roleIds: r.role_ids ?? [], mainDepartmentId: r.main_department_id ?? null }
        : undefined,
      nodesVersion: Number(r.nodes_version),
      formsVersion: Number(r.forms_version),
    };
  });
}

/** A guest session's engine and versions, and whether its token is revoked. */
export async function readGuestEngine(db: Db, jti: string, engineCode: string): Promise<{ revoked: boolean } & Omit<EnginePart, 'member'>> {
  const { rows } = await sql<Record<string, any>>`
    select ${revoked(jti)} as revoked, to_jsonb(e) as engine,
      ${version(engineCode, 'nodes')} as nodes_version, ${version(engineCode, 'forms')} as forms_version
    from (select 1) as one left join platform.engines e on e.engine_code = ${engineCode}${prepared}`.execute(db);
  const r = rows[0]!;
  return { revoked: r.revoked, engine: engineOf(r.engine), nodesVersion: Number(r.nodes_version), formsVersion: Number(r.forms_version) };
}

export interface SecretPart extends Pick<EnginePart, 'nodesVersion' | 'formsVersion'> {
  engine?: EngineRow;
  /** The live secret with that hash and the user who issued it; undefined when none. */
  secret?: { id: string; userId: string; authType: number; userState: 'active' | 'disabled'; roleIds: string[]; mainDepartmentId: string | null; lastUsedTime: Date | null };
}

/** The open API's context (docs/decisions/0021): the engine, the secret's issuer and their roles, the versions; one statement. */
export async function readSecretContext(db: Db, engineCode: string, secretHash: string): Promise<SecretPart | 'no-engine'> {
  return inEngineSchema(engineCode, async (schema) => {
    const { rows } = await sql<Record<string, any>>`
      select to_jsonb(e) as engine, s.id, s.last_used_time, u.id as user_id, u.auth_type, u.state, u.main_department_id,
        case when u.id is null then null
          else ${memberUnits(schema)} end as role_ids,
        ${version(engineCode, 'nodes')} as nodes_version, ${version(engineCode, 'forms')} as forms_version
      from (select 1) as one
      left join platform.engines e on e.engine_code = ${engineCode}
      left join ${sql.table(`${schema}.engine_secrets`)} s on s.secret_hash = ${secretHash} and s.revoked_time is null
      left join ${sql.table(`${schema}.org_users`)} u on u.id = s.created_by${prepared}`.execute(db);
    const r = rows[0]!;
    return {
      engine: engineOf(r.engine),
      secret: r.id && r.user_id ? { id: r.id, userId: r.user_id, authType: r.auth_type, userState: r.state, roleIds: r.role_ids ?? [], mainDepartmentId: r.main_department_id ?? null, lastUsedTime: r.last_used_time ? new Date(r.last_used_time) : null } : undefined,
      nodesVersion: Number(r.nodes_version),
      formsVersion: Number(r.forms_version),
    };
  });
}

/** A user's part of a context read for work done on their behalf outside a request (automation runs). */
export interface UserPart extends Pick<EnginePart, 'nodesVersion' | 'formsVersion'> {
  /** undefined: no such user */
  user?: { authType: number; state: 'active' | 'disabled'; roleIds: string[] };
}

/** A user's standing in an engine — auth type, state, roles — and the engine's versions; one statement. */
export async function readUserContext(db: Db, engineCode: string, userId: string): Promise<UserPart | 'no-engine'> {
  return inEngineSchema(engineCode, async (schema) => {
    const { rows } = await sql<Record<string, any>>`
      select u.id, u.auth_type, u.state,
        case when u.id is null then null
          else ${memberUnits(schema)} end as role_ids,
        ${version(engineCode, 'nodes')} as nodes_version, ${version(engineCode, 'forms')} as forms_version
      from (select 1) as one
      left join ${sql.table(`${schema}.org_users`)} u on u.id = ${userId}${prepared}`.execute(db);
    const r = rows[0]!;
    return {
      user: r.id ? { authType: r.auth_type, state: r.state, roleIds: r.role_ids ?? [] } : undefined,
      nodesVersion: Number(r.nodes_version),
      formsVersion: Number(r.forms_version),
    };
  });
}
