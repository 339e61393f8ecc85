import { EXTERNAL_ROOT_NODE_ID } from '@tritium/shared/constants/org';
import { ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';

/** A small company for the console's tests: 氚星科技 with 销售部 (华东组 below it) and 研发部. */
const unit = (id: string, name: string, parentId: string | null, extra: Record<string, unknown> = {}) => ({
  id,
  parentId,
  name,
  hasChild: false,
  state: 'normal',
  isExternal: false,
  entryId: null,
  unitType: parentId ? 'OrganizationUnit' : 'Company',
  nodeType: 'department',
  managerId: null,
  managerName: null,
  sortKey: 0,
  ...extra,
});

export const COMPANY = unit('c1', '氚星科技', null, { hasChild: true });
export const SALES = unit('d1', '销售部', 'c1', { hasChild: true, sortKey: 0 });
export const RND = unit('d2', '研发部', 'c1', { sortKey: 1 });
export const EAST = unit('d3', '华东组', 'd1');
export const EXTERNAL_ROOT = unit(EXTERNAL_ROOT_NODE_ID, '外部组织', null, { unitType: 'OrganizationUnit', isExternal: true });

const CHILDREN: Record<string, unknown[]> = { c1: [SALES, RND], d1: [EAST], d2: [], d3: [] };

export const orgUser = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `u${n}`,
  parentId: 'c1',
  name: `成员${n}`,
  hasChild: false,
  state: 'active',
  isExternal: false,
  entryId: null,
  unitType: 'User',
  nodeType: 'user',
  mobile: `1380000${String(n).padStart(4, '0')}`,
  authType: 3,
  mainDepartmentId: 'c1',
  mainDepartmentName: '氚星科技',
  isJoined: true,
  ...extra,
});

export const userInfo = (isAdmin: boolean) => ({
  user: { userId: 'u0', accountId: 'a0', name: '张明', mobile: '13800000000', authType: isAdmin ? 1 : 3, isAdmin, isExternal: false, companyId: 'c1' },
  currentEngine: {
    engineCode: 'alpha01',
    engineName: '氚星科技',
    engineType: 'SaaSDevelopment',
    entryType: 'Enterprise',
    state: 'normal',
    companyId: 'c1',
    logoUrl: null,
    createdTime: '2026-11-01T08:00:00+08:00',
    isPrimary: true,
  },
});

const list = (items: unknown[], total = items.length) => ok({ list: items, total, hasMore: false });

/** The reads the console makes on opening; tests add or replace handlers for the calls they look at. */
export function stubConsole(overrides: Parameters<typeof stubFetch>[0] = {}, options: { isAdmin?: boolean; userTotal?: number } = {}) {
  const { isAdmin = true, userTotal = 120 } = options;
  return stubFetch({
    'GET /v1/user/info': () => ok(userInfo(isAdmin)),
    'GET /v1/engine/connected': () => list([userInfo(isAdmin).currentEngine]),
    'POST /v1/org/department/list': (call: RecordedCall) => {
      const body = call.body as { parentId?: string; scope?: string };
      if (!body.parentId) return list(body.scope === 'external' ? [EXTERNAL_ROOT] : [COMPANY]);
      return list(CHILDREN[body.parentId] ?? []);
    },
    'POST /v1/org/user/list': (call: RecordedCall) => {
      const body = call.body as { pageIndex: number; pageSize: number };
      const start = body.pageIndex * body.pageSize;
      const count = Math.max(0, Math.min(body.pageSize, userTotal - start, 3));
      return list(Array.from({ length: count }, (_, i) => orgUser(start + i + 1)), userTotal);
    },
    'POST /v1/org/association/list': () => list([]),
    'GET /v1/org/role/list': () => list([]),
    'GET /v1/org/rolegroup/list': () => list([]),
    'GET /v1/org/post/list': () => list([]),
    ...overrides,
  });
}
