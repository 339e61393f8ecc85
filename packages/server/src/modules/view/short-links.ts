import { randomBytes } from 'node:crypto';
import { SHORT_LINK_PATH } from '@tritium/shared/constants/entry-routes';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';

// Short links (POST /v1/bizdata/shortlink; issue 19): a short code kept per engine and path, answered by
// GET /s/<code> with a redirect. Only paths of this site are kept — never another host — so a short link cannot send
// anyone elsewhere (an open redirect). The page it opens checks its visitor as usual.

const BASE = 'http://site.invalid';

/** The path as kept: absolute on this site, no host, no scheme, no backslashes. Refused (330105) otherwise. */
export function sitePath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) throw new AppError('ShortLinkTarget');
  let url: URL;
  try {
    url = new URL(path, BASE);
  } catch {
    throw new AppError('ShortLinkTarget');
  }
  if (url.origin !== BASE) throw new AppError('ShortLinkTarget');
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The short path of a page of this site for an engine: the same page keeps its one code. */
export async function shortPathFor(db: Db, engineCode: string, userId: string, target: string): Promise<string> {
  const path = sitePath(target);
  const code = randomBytes(6).toString('base64url');
  await db.insertInto('platform.short_links').values({ code, engine_code: engineCode, target: path, created_by: userId }).onConflict((oc) => oc.columns(['engine_code', 'target']).doNothing()).execute();
  const row = await db.selectFrom('platform.short_links').select('code').where('engine_code', '=', engineCode).where('target', '=', path).executeTakeFirstOrThrow();
  return `${SHORT_LINK_PATH}/${row.code}`;
}

/** Where a short code leads, or undefined. */
export async function shortLinkTarget(db: Db, code: string): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(code)) return undefined;
  const row = await db.selectFrom('platform.short_links').select('target').where('code', '=', code).executeTakeFirst();
  return row?.target;
}
