import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { contracts } from '@tritium/shared';
import type { OrgScope } from '@tritium/shared/constants/org';
import { parameterError } from '../../lib/app-error.ts';
import { escapeLike, searchKeyword } from './pinyin.ts';
import type { EngineExecutor } from './org.repo.ts';

// Paging and filters shared by the read queries of the organisation. Every filter, order and page is SQL;
// nothing is filtered in JavaScript.
export interface PageRequest {
  pageIndex: number;
  /** -1: every row, up to ORG_PAGE_ALL_CAP. */
  pageSize: number;
}

export interface Paged<T> {
  rows: T[];
  total: number;
  hasMore: boolean;
}

const { ORG_PAGE_ALL_CAP } = contracts;

const tooManyForAll = () => parameterError([{ path: 'pageSize', message: `结果超过一次返回全部（-1）的上限 ${ORG_PAGE_ALL_CAP} 条，请分页查询` }]);

/**
 * Reads one page and the total in one statement (count(*) over the whole result, before LIMIT). "All" (-1) reads
 * up to the cap and refuses more with 777. Only a page past the end needs a second, counting statement.
 */
export async function paged<T>(
  edb: EngineExecutor,
  rowsQuery: SelectQueryBuilder<any, any, T>,
  page: PageRequest,
  /** A separate count, for lists whose page an index serves in order (a window count would read every row). */
  countQuery?: { executeTakeFirstOrThrow(): Promise<{ n: unknown }> },
): Promise<Paged<T>> {
  if (countQuery) {
    const total = Number((await countQuery.executeTakeFirstOrThrow()).n);
    if (page.pageSize === -1 && total > ORG_PAGE_ALL_CAP) throw tooManyForAll();
    const offset = page.pageSize === -1 ? 0 : page.pageIndex * page.pageSize;
    if (offset >= total) return { rows: [], total, hasMore: false };
    const rows = await (page.pageSize === -1 ? rowsQuery : rowsQuery.limit(page.pageSize).offset(offset)).execute();
    return { rows, total, hasMore: offset + rows.length < total };
  }
  if (page.pageSize === -1) {
    const rows = await rowsQuery.limit(ORG_PAGE_ALL_CAP + 1).execute();
    if (rows.length > ORG_PAGE_ALL_CAP) throw tooManyForAll();
    return { rows, total: rows.length, hasMore: false };
  }
  const offset = page.pageIndex * page.pageSize;
  const counted = await rowsQuery.select(sql<number>`count(*) over ()`.as('total_count')).limit(page.pageSize).offset(offset).execute();
  if (counted.length) {
    const total = Number(counted[0].total_count);
    const rows = counted.map(({ total_count: _, ...row }) => row as unknown as T);
    return { rows, total, hasMore: offset + rows.length < total };
  }
  const total = offset === 0 ? 0 : Number((await edb.selectFrom(rowsQuery.clearOrderBy().as('c')).select(countAll).executeTakeFirstOrThrow()).n);
  return { rows: [], total, hasMore: false };
}

export const likePattern = (keyword: string) => `%${escapeLike(searchKeyword(keyword))}%`;
export const countAll = (eb: ExpressionBuilder<any, any>) => eb.fn.countAll<number>().as('n');


/** Organisation scope (domain.md §6) on a query whose unit or user table is aliased u. */
export function scopeFilter(scope: OrgScope) {
  return (eb: ExpressionBuilder<{ u: { is_external: boolean } }, 'u'>) => (scope === 'all' ? eb.lit(true) : eb('u.is_external', '=', scope === 'external'));
}
