import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';

// A fake server for the code pages: an order form (f_order) of the app sales, its server script at version 2, two
// saved versions, the type check's answer, the business log; a save after someone else's is refused (410101).

export const SERVER_V1 = `export async function onSubmit(ctx: ScriptContext) {\n  ctx.log('一');\n}\n`;
export const SERVER_V2 = `export async function onSubmit(ctx: ScriptContext) {\n  ctx.log('二');\n  ctx.refuse('金额超限');\n}\n`;

const part = (p: string, version: number, source: string) => ({
  part: p, language: 'ts', source, version,
  authorId: version ? 'u1' : null, authorName: version ? '王管理' : null, updatedTime: version ? '2026-11-28T06:30:00.000Z' : null,
});

export const LOG_ITEMS = [
  { id: 'l2', userId: 'u3', at: '2026-11-28T07:00:05.000Z', appCode: 'sales', schemaCode: 'f_order', part: 'form-server', handler: 'onSubmit', level: 'error', message: '金额超限', line: 3, durationMs: 4.2, requestId: 'req-1', userName: '赵成员' },
  { id: 'l1', userId: 'u3', at: '2026-11-28T07:00:01.000Z', appCode: 'sales', schemaCode: 'f_order', part: 'form-server', handler: 'onSubmit', level: 'info', message: '二', line: 2, durationMs: 3, requestId: 'req-2', userName: '赵成员' },
];

export function stubCodeServer(options: { conflict?: boolean; diagnostics?: unknown[]; canEditLimits?: boolean } = {}) {
  let current = 2;
  let limits = { cpuMs: 2000, memoryMb: 64, custom: false, canEdit: options.canEditLimits ?? true };
  return stubFetch({
    'POST /v1/codeeditor/load': (call) =>
      ok((call.body as { appCode?: string; schemaCode?: string }).schemaCode
        ? { appCode: 'sales', appName: '销售', schemaCode: 'f_order', formName: '订单', canEdit: true, parts: [part('form-server', 2, SERVER_V2), part('form-browser', 0, '// 表单前端代码\n')] }
        : { appCode: 'sales', appName: '销售', schemaCode: null, formName: null, canEdit: true, parts: [part('app-api', 0, '// 应用的自定义接口\n')] }),
    'POST /v1/codeeditor/check': () => ok({ diagnostics: options.diagnostics ?? [] }),
    'POST /v1/codeeditor/save': () => (options.conflict ? fail(410101, '代码已被他人保存为第 3 版，请先查看最新版本再保存') : ok({ version: ++current, updatedTime: '2026-11-28T08:00:00.000Z' })),
    'POST /v1/codeeditor/versions': () =>
      ok({ list: [
        { version: 2, language: 'ts', authorId: 'u2', authorName: '李应用', createdTime: '2026-11-28T06:30:00.000Z', size: 96 },
        { version: 1, language: 'ts', authorId: 'u1', authorName: '王管理', createdTime: '2026-11-27T02:05:00.000Z', size: 64 },
      ] }),
    'POST /v1/codeeditor/version': (call) => {
      const version = (call.body as { version: number }).version;
      return ok({ version, language: 'ts', source: version === 1 ? SERVER_V1 : SERVER_V2, authorId: 'u1', authorName: '王管理', createdTime: '2026-11-27T02:05:00.000Z', size: 64 });
    },
    'POST /v1/bizdata/query': () => ok({ list: [{ ObjectId: 'o-1001', Name: '华东贸易的订单' }], total: 1, hasMore: false }),
    'POST /v1/codeeditor/limits': () => ok(limits),
    'POST /v1/codeeditor/limits/save': (call) => {
      limits = { ...limits, ...(call.body as object), custom: true };
      return ok(limits);
    },
    'POST /v1/codeeditor/rollback': () => ok({ version: ++current, updatedTime: '2026-11-28T08:00:00.000Z' }),
    'POST /v1/codeeditor/dryrun': () =>
      ok({ status: 'refused', changes: { Total: [100, 120] }, fieldNames: { Total: '合计' }, refusal: '金额超限', logs: [{ level: 'info', message: '开始计算', line: 2 }], durationMs: 5.4 }),
    'GET /v1/toolkit/bizlog/list': (call) => {
      const level = new URL(call.url, 'http://localhost').searchParams.get('level');
      const items = level ? LOG_ITEMS.filter((i) => i.level === level) : LOG_ITEMS;
      return ok({ items, total: items.length, hasMore: false });
    },
  });
}
