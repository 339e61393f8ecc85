import { z } from 'zod';
import { ORG_SCOPES, ORG_UNIT_TYPES, UserAuthType } from '../../constants/org.ts';
import { ORG_LIST_PAGING } from '../../constants/limits.ts';
import { PAGE_SIZE_ALL, PAGE_SIZE_OPTIONS } from '../../constants/views.ts';

/** pageSize -1 answers every row, up to this many; a larger result is refused with 777 (api-conventions.md). */
export const ORG_PAGE_ALL_CAP = 5000;

/** What a unit is, in the shape a picker groups by (calls.md §3 "kinds user, department, role"; posts added). */
export const ORG_NODE_TYPES = ['department', 'user', 'role', 'post'] as const;
export type OrgNodeType = (typeof ORG_NODE_TYPES)[number];

/** An org unit id: UUIDs here, but ids from directory imports may take other shapes. */
export const UnitId = z.string().trim().min(1, '请选择组织单元').max(64, 'id 过长').regex(/^[A-Za-z0-9_-]+$/, '无效的组织单元 id');
export const unitIdList = (max: number) => z.array(UnitId).min(1, '至少选择一项').max(max, `一次最多 ${max} 项`);

/**
 * domain.md §6: organisation scope. Default inner: pickers show the company's own organisation. Where a call names
 * a department (parentId, departmentId), that department's own side applies instead.
 */
export const OrgScope = z.enum(ORG_SCOPES).default('inner');
export const UnitType = z.enum(ORG_UNIT_TYPES);

export const DepartmentName = z.string().trim().min(1, '请输入部门名称').max(50, '部门名称最多50个字符');
export const RoleName = z.string().trim().min(1, '请输入名称').max(32, '名称最多32个字符');
/** Search text: a name fragment in 汉字, full pinyin, pinyin initials or a mobile fragment. */
export const Keyword = z.string().trim().min(1, '请输入关键字').max(50, '关键字最多50个字符');

/** Auth types an administrator may give (domain.md §6); Anonymous 4 belongs to guest sessions only. */
export const AssignableAuthType = z.union(
  [UserAuthType.Administrator, UserAuthType.SubAdministrator, UserAuthType.Personal, UserAuthType.External, UserAuthType.AppCreator].map((n) => z.literal(n)) as [
    z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>, z.ZodLiteral<5>, z.ZodLiteral<6>,
  ],
  { error: '权限类型须为 1、2、3、5 或 6' },
);

export const UserStateFilter = z.enum(['active', 'disabled', 'all']).default('active');

// domain.md §9: page sizes up to the largest option (500); -1 means all rows.
const PAGE_SIZE_MAX = Math.max(...PAGE_SIZE_OPTIONS);
const pageSizeRule = (n: number) => n === PAGE_SIZE_ALL || (n >= 1 && n <= PAGE_SIZE_MAX);
const PAGE_SIZE_MESSAGE = `pageSize 须为 1-${PAGE_SIZE_MAX}，或 ${PAGE_SIZE_ALL} 表示全部`;

/** Paging of org lists in a JSON body (calls.md §9: from 0, size 50, -1 all). */
export const orgPage = {
  pageIndex: z.number().int().min(0).max(1_000_000).default(ORG_LIST_PAGING.from),
  pageSize: z.number().int().refine(pageSizeRule, PAGE_SIZE_MESSAGE).default(ORG_LIST_PAGING.pageSize),
};

/** The same paging in a query string. */
export const orgPageQuery = {
  pageIndex: z.coerce.number().int().min(0).max(1_000_000).default(ORG_LIST_PAGING.from),
  pageSize: z.coerce.number().int().refine(pageSizeRule, PAGE_SIZE_MESSAGE).default(ORG_LIST_PAGING.pageSize),
};
