import { fail, ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';

// A fake server for the list view: one published order form, two designed views, personal views kept in memory,
// the view query answering from a fixed list, and a batch update job that finishes on the second progress call.

export const definition = {
  attributes: { displayName: '订单', enableDataLog: false, enableFormSNS: false, enableTask: false },
  controls: [
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
    { type: 'dropDown', code: 'Level', options: { displayName: '等级', defaultItems: ['高', '低'] } },
    { type: 'multiUser', code: 'Watchers', options: { displayName: '关注人' } },
  ],
};

const field = (code: string, title: string, controlType: string, dataType: string, sortable: boolean, operators: string[], items?: string[]) => ({ code, title, controlType, dataType, sortable, operators, ...(items ? { items } : {}) });
export const FIELDS = [
  field('Title', '标题', 'textBox', 'string', true, ['Equal', 'NotEqual', 'Contains', 'NotContains', 'IsBlank', 'NotBlank']),
  field('Amount', '金额', 'number', 'decimal', true, ['Equal', 'Above', 'Below', 'Between', 'IsBlank']),
  field('Level', '等级', 'dropDown', 'string', true, ['Equal', 'In', 'NotIn'], ['高', '低']),
  field('Watchers', '关注人', 'multiUser', 'users', false, ['Contains', 'IsBlank']),
];

export const VIEWS = [
  {
    code: 'All', title: '全部订单', mode: 0, scope: 3, rowHeight: 36, pageSize: 20,
    columns: [{ field: 'Title', width: 200 }, { field: 'Amount' }, { field: 'Level' }, { field: 'Watchers' }],
    sort: [], filters: ['Title', 'Amount', 'Level'], quickSearch: ['Title'], stats: [{ field: 'Amount', type: 'sum' }],
    actions: [{ code: 'Create', title: '新增', type: 'Create' }, { code: 'BatchEdit', title: '批量修改', type: 'BatchEdit' }, { code: 'Delete', title: '删除', type: 'Delete' }, { code: 'Close', title: '关闭订单', type: 'Script', actionName: 'close' }],
    styleRules: [{ filter: { field: 'Amount', operator: 'Above', value: 100 }, color: 12 }],
  },
  { code: 'Mine', title: '我的订单', mode: 0, scope: 1, rowHeight: 46, pageSize: 50, columns: [{ field: 'Title' }], sort: [], filters: [], quickSearch: [], stats: [], actions: [], styleRules: [] },
];

export const ROWS = [
  { ObjectId: '0192aaaa-0000-7000-8000-000000000001', Name: '大单', Title: '大单', Amount: 300, Level: '高', Watchers: ['u1'] },
  { ObjectId: '0192aaaa-0000-7000-8000-000000000002', Name: '小单', Title: '小单', Amount: 12.5, Level: '低', Watchers: null },
];

/** `handlers` adds or replaces answers (another feature's calls on the list, such as the smart actions). */
export function stubListView(options: { canDesign?: boolean; personal?: unknown[]; handlers?: Parameters<typeof stubFetch>[0] } = {}) {
  const personal: any[] = [...(options.personal ?? [])];
  let progressCalls = 0;
  const stub = stubFetch({
    'POST /v1/form/loadsetting': () =>
      ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_order', appCode: 'crm', displayName: '订单', nodeType: 200, version: 1, properties: [], childSchemas: [] }, definition }),
    'POST /v1/form/permission/mine': () =>
      ok({ schemaCode: 'f_order', source: 'open', actions: ['view', 'create', 'edit', 'delete', 'import', 'export', 'print', 'batchUpdate', 'changeOwner'], viewScopes: ['all'], editScopes: ['all'], fieldRights: {} }),
    'GET /v1/view/setting': () => ok({ schemaCode: 'f_order', views: VIEWS, canDesign: options.canDesign ?? false }),
    'GET /v1/page/header': (call) => {
      const code = new URL(call.url, 'http://localhost').searchParams.get('viewCode');
      const view = VIEWS.find((v) => v.code === code)!;
      return ok({ view, columns: view.columns.map((c) => ({ ...FIELDS.find((f) => f.code === c.field)!, width: (c as { width?: number }).width ?? null, fixed: null })), filters: view.filters.map((f) => FIELDS.find((x) => x.code === f)) });
    },
    'GET /v1/preference/view/list': () => ok({ list: personal }),
    'POST /v1/preference/view/addView': (call) => {
      const body = call.body as Record<string, unknown>;
      const added = { Id: `0192bbbb-0000-7000-8000-00000000000${personal.length + 1}`, ScopeType: 3, SettingType: 0, Visible: true, Fields: [], ...body };
      personal.push(added);
      return ok(added);
    },
    'POST /v1/preference/view/deleteView': (call) => {
      const { Id } = call.body as { Id: string };
      personal.splice(personal.findIndex((p) => p.Id === Id), 1);
      return ok({ Id });
    },
    'POST /v1/bizdata/view/query': () => ok({ list: ROWS, total: 2, hasMore: false, stats: { Amount: { count: 2, sum: 312.5, avg: 156.25, min: 12.5, max: 300 } } }),
    'POST /v1/org/unit/batch': () => ok({ list: [{ id: 'u1', name: '张三' }] }),
    'POST /v1/codeeditor/listaction': () => ok({ data: { closed: 1 } }),
    'POST /v1/bizdata/batchupdate': () => ok({ taskId: '0192cccc-0000-7000-8000-000000000001' }),
    'POST /v1/bizdata/batchupdate/progress': () => {
      progressCalls++;
      const done = progressCalls > 1;
      return ok({
        taskId: '0192cccc-0000-7000-8000-000000000001', schemaCode: 'f_order', field: 'Level', state: done ? 'Finished' : 'Running', progress: done ? 100 : 50, message: null, createdTime: '2026-11-23T00:00:00.000Z',
        result: done ? { total: 2, succeeded: 1, failedCount: 1, failed: [{ objectId: ROWS[0].ObjectId, errorCode: 250003, message: '只有数据的创建人、拥有者或应用管理员可以修改或删除该数据' }] } : null,
      });
    },
    'POST /v1/bizdata/view/delete': (call) => ok({ removed: (call.body as { objectIds: string[] }).objectIds, failed: [] }),
    'GET /v1/view/designer/load': () => ok({ schemaCode: 'f_order', views: VIEWS, fields: FIELDS }),
    'POST /v1/view/designer/save': (call) => ok({ schemaCode: 'f_order', views: (call.body as { views: unknown[] }).views, canDesign: true }),
    ...options.handlers,
  });
  return { ...stub, personal };
}

export const refusedSave = () => fail(777, '参数校验失败', { detail: { issues: [{ path: 'views.0.title', message: '名称不能为空' }] } });
export type { RecordedCall };
