import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { anyDb } from '../business-data/runtime-form.ts';

// What every page for visitors without an account shares (public fill-in links, record shares): tokens, passwords
// kept as scrypt hashes and compared in constant time, and the engine a link names — unknown or stopped engines are
// answered like unknown links (330101), so a visitor learns nothing from the address.

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `${salt.toString('base64url')}.${(await scrypt(password, salt, 32)).toString('base64url')}`;
}

export async function passwordMatches(stored: string, given: string | undefined): Promise<boolean> {
  if (given === undefined) return false;
  const [salt, hash] = stored.split('.');
  const actual = await scrypt(given, Buffer.from(salt!, 'base64url'), 32);
  const expected = Buffer.from(hash!, 'base64url');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export const newToken = () => randomBytes(18).toString('base64url');

function engineOfVisitor(db: Db, engineCode: string): EngineExecutor {
  try {
    return engineDb(db, engineCode);
  } catch {
    throw new AppError('PublicLinkNotFound');
  }
}

export async function knownEngine(db: Db, engineCode: string): Promise<EngineExecutor> {
  const engine = await db.selectFrom('platform.engines').select(['engine_code', 'state']).where('engine_code', '=', engineCode).executeTakeFirst();
  if (!engine || engine.state !== 'normal') throw new AppError('PublicLinkNotFound');
  return engineOfVisitor(db, engineCode);
}

/** The member a link acts for (their rights), in the given executor's database; a member who left closes the link. */
export async function memberContext(db: Db, edb: EngineExecutor, engineCode: string, userId: string, closed: 'PublicLinkClosed' | 'PublicLinkNotFound'): Promise<NodeContext> {
  const member = await edb.selectFrom('org_users').select(['auth_type', 'state']).where('id', '=', userId).executeTakeFirst();
  if (!member || member.state !== 'active') throw new AppError(closed);
  return { db, engineCode, userId, authType: member.auth_type };
}

/** The tables of a form's visitor pages: one page a form, keyed by its code, addressed by a token. */
type FormPageTable = 'form_public_links' | 'form_open_queries';

/**
 * Creates or changes a form's visitor page; a new page gets its token. `password`: undefined keeps the one kept, null
 * removes it, a hash sets it.
 */
export async function saveFormPage(edb: EngineExecutor, table: FormPageTable, key: { schemaCode: string; createdBy: string }, values: Record<string, unknown>, password: string | null | undefined): Promise<void> {
  const set = { ...values, modified_time: new Date(), ...(password === undefined ? {} : { password_hash: password }) };
  await anyDb(edb)
    .insertInto(table)
    .values({ schema_code: key.schemaCode, token: newToken(), created_by: key.createdBy, password_hash: password ?? null, ...set })
    .onConflict((oc) => oc.column('schema_code').doUpdateSet(set))
    .execute();
}

/** A new token for a form's page: the old address is refused at once (330101 when the form has no page). */
export async function renewFormPageToken(edb: EngineExecutor, table: FormPageTable, schemaCode: string): Promise<void> {
  const r = await anyDb(edb).updateTable(table).set({ token: newToken(), modified_time: new Date() }).where('schema_code', '=', schemaCode).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new AppError('PublicLinkNotFound');
}
