import { z } from 'zod';

/** A page request that starts at pageIndex 0 (calls.md §9: connected engines and org lists). */
export const ZeroBasedPageQuery = z.object({
  pageIndex: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().refine((n) => n === -1 || (n >= 1 && n <= 500), 'pageSize 须为 1-500 或 -1').default(50),
});

/** api-conventions.md: a list answer. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int().optional(), hasMore: z.boolean() });
}

export const EmptyResult = z.object({});
