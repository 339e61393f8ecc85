import type { Selectable } from 'kysely';
import type { CustomCodeTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// custom_codes and custom_code_versions (docs/decisions/0118). Every query names the owner the same way: an app's
// own part has schema_code null.

export interface CodeOwner {
  appCode: string;
  schemaCode: string | null;
  part: string;
}

export type CodeRow = Selectable<CustomCodeTable> & { author_name: string | null };

/** `where` of one part of one owner (null schema: `is null`). */
function ofOwner<QB extends { where: (...args: any[]) => QB }>(qb: QB, owner: CodeOwner, prefix = ''): QB {
  const withSchema = owner.schemaCode === null ? qb.where(`${prefix}schema_code`, 'is', null) : qb.where(`${prefix}schema_code`, '=', owner.schemaCode);
  return withSchema.where(`${prefix}app_code`, '=', owner.appCode).where(`${prefix}part`, '=', owner.part);
}

/** Every saved part of an owner (app or form), with the author's name. */
export async function listParts(edb: EngineExecutor, appCode: string, schemaCode: string | null): Promise<CodeRow[]> {
  let q = edb
    .selectFrom('custom_codes as c')
    .leftJoin('org_users as u', 'u.id', 'c.updated_by')
    .selectAll('c')
    .select('u.name as author_name')
    .where('c.app_code', '=', appCode);
  q = schemaCode === null ? q.where('c.schema_code', 'is', null) : q.where('c.schema_code', '=', schemaCode);
  return (await q.execute()) as CodeRow[];
}

/** The current row of a part, locked until the transaction ends (saves and roll backs decide under it). */
export async function lockPart(edb: EngineExecutor, owner: CodeOwner) {
  return ofOwner(edb.selectFrom('custom_codes').select(['version', 'source', 'language']), owner).forUpdate().executeTakeFirst();
}

/** The current source of a part, for the scripts' runtime. */
export async function findSource(edb: EngineExecutor, owner: CodeOwner) {
  return ofOwner(edb.selectFrom('custom_codes').select(['source', 'language', 'version', 'compiled']), owner).executeTakeFirst();
}

export interface NewVersion {
  language: string;
  source: string;
  compiled: string | null;
  version: number;
  author: string;
  at: Date;
}

/** Writes a part's new current source and its version row. */
export async function writeVersion(edb: EngineExecutor, owner: CodeOwner, next: NewVersion): Promise<void> {
  const at = next.at.toISOString();
  if (next.version === 1) {
    await edb
      .insertInto('custom_codes')
      .values({ app_code: owner.appCode, schema_code: owner.schemaCode, part: owner.part, language: next.language, source: next.source, compiled: next.compiled, version: 1, updated_by: next.author, updated_at: at })
      .execute();
  } else {
    await ofOwner(edb.updateTable('custom_codes').set({ language: next.language, source: next.source, compiled: next.compiled, version: next.version, updated_by: next.author, updated_at: at }), owner).execute();
  }
  await edb
    .insertInto('custom_code_versions')
    .values({ app_code: owner.appCode, schema_code: owner.schemaCode, part: owner.part, version: next.version, language: next.language, source: next.source, author: next.author, created_at: at })
    .execute();
}

/** The versions of a part, newest first, with their authors' names and sizes (bytes of UTF-8). */
export async function listVersions(edb: EngineExecutor, owner: CodeOwner) {
  return ofOwner(
    edb
      .selectFrom('custom_code_versions as v')
      .leftJoin('org_users as u', 'u.id', 'v.author')
      .select(['v.version', 'v.language', 'v.author', 'v.created_at', 'u.name as author_name'])
      .select((eb) => eb.fn<number>('octet_length', ['v.source']).as('size')),
    owner,
    'v.',
  )
    .orderBy('v.version', 'desc')
    .execute();
}

/** One version of a part with its source. */
export async function findVersion(edb: EngineExecutor, owner: CodeOwner, version: number) {
  return ofOwner(
    edb
      .selectFrom('custom_code_versions as v')
      .leftJoin('org_users as u', 'u.id', 'v.author')
      .select(['v.version', 'v.language', 'v.source', 'v.author', 'v.created_at', 'u.name as author_name'])
      .select((eb) => eb.fn<number>('octet_length', ['v.source']).as('size'))
      .where('v.version', '=', version),
    owner,
    'v.',
  ).executeTakeFirst();
}
