import { fail, ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';

type Node = {
  code: string; objectId: string; parentCode: string | null; appCode: string; displayName: string; icon: string; iconColor: string;
  nodeType: number; summary: string; appState: string; source: string; state: 'Normal' | 'Disabled'; url: string | null; sortKey: number; permission: string;
};

const node = (code: string, appCode: string, parentCode: string | null, displayName: string, nodeType: number, sortKey: number, extra: Partial<Node> = {}): Node => ({
  code, objectId: `o-${code}`, parentCode, appCode, displayName, icon: '', iconColor: '', nodeType, summary: '', appState: 'Normal', source: 'Own',
  state: 'Normal', url: null, sortKey, permission: 'administrator', ...extra,
});

const engine = { engineCode: 'alpha01', engineName: '甲公司', engineType: 'SaaSDevelopment', entryType: 'Enterprise', state: 'normal', companyId: 'c1', logoUrl: null, createdTime: '2026-11-01T08:00:00+08:00', isPrimary: true };

const DEFAULT_CONFIG = { components: [{ id: 'recent', type: 'recentActivity', visible: true, width: 4 }, { id: 'apps', type: 'appList', visible: true, width: 4 }] };

/**
 * A small in-memory server for the workbench: two apps (客户管理 with two groups, 项目管理), the calls that read
 * and change them, and a copy job whose progress follows the script given.
 */
export function stubApps({ isAdministrator = true, copyScript = [] as { state: string; progress: number }[] } = {}) {
  let nodes: Node[] = [
    node('crm', 'crm', null, '客户管理', 190, 0, { icon: 'team', iconColor: '#13a8a8' }),
    node('g_leads', 'crm', 'crm', '销售线索', 230, 0),
    node('f_lead', 'crm', 'g_leads', '线索登记', 200, 0),
    node('f_follow', 'crm', 'g_leads', '跟进记录', 200, 1),
    node('g_contract', 'crm', 'crm', '合同管理', 230, 1),
    node('r_contract', 'crm', 'g_contract', '合同统计', 220, 0),
    node('pm', 'pm', null, '项目管理', 190, 1, { icon: 'project', iconColor: '#722ed1' }),
  ];
  let copyStep = 0;
  let savedConfig: typeof DEFAULT_CONFIG | undefined;
  const apps = () => nodes.filter((n) => n.nodeType === 190).sort((a, b) => a.sortKey - b.sortKey);
  const body = <T>(call: RecordedCall) => call.body as T;
  const stub = stubFetch({
    'GET /v1/user/info': () => ok({ user: { userId: 'u1', accountId: 'a1', name: '张三', mobile: '13800000000', authType: isAdministrator ? 1 : 3, isAdmin: isAdministrator, isExternal: false, companyId: 'c1' }, currentEngine: engine }),
    'GET /v1/engine/connected': () => ok({ list: [engine], total: 1, hasMore: false }),
    'POST /v1/switch/batch': () => ok({ switches: [] }),
    'GET /v1/form/hidden': () => ok({ codes: [] }),
    // The forms of this fake are not published: their nodes say so instead of listing records.
    'POST /v1/form/loadsetting': () => fail(240004, '表单尚未发布'),
    'GET /v1/functionnode/app/list': () => ok({ list: apps().map((a) => ({ ...a, children: [], defaultSchemaCode: null, isAdmin: isAdministrator })) }),
    'GET /v1/functionnode/app/hascode/list': () => ok({ codes: isAdministrator ? apps().map((a) => a.code) : [], isAdministrator }),
    'GET /v1/functionNode/app/feature/list': (call) => {
      const appCode = new URL(call.url, 'http://x').searchParams.get('appCode')!;
      const list = nodes.filter((n) => n.appCode === appCode && n.code !== appCode);
      return ok({ list, defaultSchemaCode: appCode === 'crm' ? 'f_lead' : null });
    },
    'POST /v1/functionnode': (call) => {
      const b = body<{ code?: string; displayName: string; nodeType: number; appCode?: string; parentCode?: string; icon?: string; iconColor?: string }>(call);
      if (b.code && nodes.some((n) => n.code.toLowerCase() === b.code!.toLowerCase())) return fail(777, '参数校验失败', { detail: { issues: [{ path: 'code', message: '编码已被使用，请换一个' }] } });
      const code = b.code ?? `N${nodes.length}`;
      const created = node(code, b.appCode ?? code, b.nodeType === 190 ? null : (b.parentCode ?? b.appCode!), b.displayName, b.nodeType, 99, { icon: b.icon ?? '', iconColor: b.iconColor ?? '' });
      nodes = [...nodes, created];
      return ok(created);
    },
    'PUT /v1/functionnode/sort': () => ok({}),
    'POST /v1/functionnode/update': (call) => {
      const b = body<Partial<Node> & { code: string }>(call);
      nodes = nodes.map((n) => (n.code === b.code ? { ...n, ...b } : n));
      return ok(nodes.find((n) => n.code === b.code));
    },
    'POST /v1/functionNode/checkmove': () => ok({ allowed: true }),
    'POST /v1/functionnode/move': (call) => {
      const b = body<{ code: string; parentCode: string }>(call);
      nodes = nodes.map((n) => (n.code === b.code ? { ...n, parentCode: b.parentCode, sortKey: 99 } : n));
      return ok(nodes.find((n) => n.code === b.code));
    },
    'POST /v1/functionnode/remove': (call) => {
      const { code } = body<{ code: string }>(call);
      const before = nodes.length;
      nodes = nodes.filter((n) => n.code !== code && n.appCode !== code);
      return ok({ removed: before - nodes.length });
    },
    'POST /v1/functionNode/checkcopy': () => ok({ allowed: true }),
    'POST /v1/functionnode/copy': () => ok({ actionId: '01a20200-0000-7000-8000-000000000001' }),
    'POST /v1/functionnode/copy/retry': () => ok({}),
    'GET /v1/functionnode/copy/progress': () => {
      const step = copyScript[Math.min(copyStep++, copyScript.length - 1)];
      const isComplete = step.state === 'Finished';
      if (isComplete && !nodes.some((n) => n.code === 'crm_copy')) nodes = [...nodes, node('crm_copy', 'crm_copy', null, '客户管理-副本', 190, 2)];
      const copy = nodes.find((n) => n.code === 'crm_copy');
      return ok({ actionId: '01a20200-0000-7000-8000-000000000001', isComplete, state: step.state, progress: step.progress, message: null, attempts: 1, node: isComplete && copy ? { ...copy, children: [], defaultSchemaCode: null, isAdmin: true } : null });
    },
    'GET /v1/workbench/config': () => ok({ config: savedConfig ?? DEFAULT_CONFIG, isDefault: !savedConfig }),
    'GET /v1/workbench/config/default': () => ok({ config: DEFAULT_CONFIG, isDefault: true }),
    'POST /v1/workbench/saveconfig': (call) => {
      savedConfig = call.body as typeof DEFAULT_CONFIG;
      return ok({ config: savedConfig, isDefault: false });
    },
    'GET /v1/workbench/recentactivity': () => ok({ list: [] }),
    'POST /v1/workbench/visit': () => ok({}),
  });
  return { ...stub, nodes: () => nodes };
}
