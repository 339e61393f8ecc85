import { fail, ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';

/** A published order form: text (required, e-mail mode), number, drop-down with colours, a sub-table. */
export function orderDefinition() {
  return {
    attributes: { displayName: '订单', enableDataLog: true, enableFormSNS: false, enableTask: false, titleWidth: 120, modalWidth: 820, modalHeight: 500 },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '标题', required: true, textMode: 'Normal' } },
      { type: 'textBox', code: 'Mail', options: { displayName: '邮箱', textMode: 'Email' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2, showMode: 'normal' } },
      { type: 'formula', code: 'Double', options: { displayName: '两倍金额', expression: '{Amount}*2', bindType: 'decimal', decimalPlaces: 2, showMode: 'normal', displayFormat: 'yyyy-mm-dd hh:mm' } },
      { type: 'textBox', code: 'Reason', options: { displayName: '大额原因', required: true, hideCondition: '{Amount}<100' } },
      { type: 'dropDown', code: 'Level', options: { displayName: '等级', defaultItems: ['高', '低'], itemColors: { 高: 0 } } },
      { type: 'gridView', code: 'Items', options: { displayName: '明细' }, controls: [{ type: 'textBox', code: 'Goods', options: { displayName: '商品', required: true } }] },
      { type: 'seqNo', code: 'SeqNo', options: { displayName: '单据号' } },
    ],
  };
}

const system = (objectId: string | null, status: number) => ({
  ObjectId: objectId, Name: objectId ? '第一单' : '', Status: status, CreatedBy: 'u1', ModifiedBy: 'u1', OwnerId: 'u1', OwnerDeptId: null,
  CreatedTime: objectId ? '2026-11-20T02:00:00.000Z' : null, ModifiedTime: null, SeqNo: objectId ? '202600000001' : null, WorkflowInstanceId: null,
});

/** The server of one form: loadsetting, loaddata (new or saved), execute (answers `executeAnswer` when given). */
export function stubRuntime(options: { execute?: (call: RecordedCall) => Response; handlers?: Parameters<typeof stubFetch>[0] } = {}) {
  const saved = { Title: '第一单', Mail: 'a@b.cn', Amount: 12.5, Level: '高' };
  const stub = stubFetch({
    'POST /v1/form/loadsetting': () =>
      ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_order', appCode: 'crm', displayName: '订单', nodeType: 200, version: 1, properties: [], childSchemas: [] }, definition: orderDefinition() }),
    'POST /v1/form/loaddata': (call) => {
      const { objectId } = call.body as { objectId?: string };
      if (!objectId) return ok({ schemaCode: 'f_order', version: 1, isNew: true, values: { Title: '', Mail: '', Amount: null, Level: null }, system: system(null, 0), children: { Items: [] }, status: 0, actions: ['Save', 'Submit', 'Close'] });
      return ok({ schemaCode: 'f_order', version: 1, isNew: false, values: saved, system: system(objectId, 1), children: { Items: [{ ObjectId: 'row-1', Goods: '苹果' }] }, status: 1, actions: ['Save', 'Submit', 'Remove', 'Copy', 'Print', 'Close'] });
    },
    'POST /v1/form/action/execute': (call) => options.execute?.(call) ?? ok({ objectId: '0192aaaa-0000-7000-8000-000000000001', status: 1, seqNo: '202600000001', name: '第一单' }),
    'POST /v1/org/unit/batch': () => ok({ list: [{ id: 'u1', name: '张三' }] }),
    'POST /v1/form/datalog/list': () => ok({ list: [{ id: 'l1', userId: 'u1', time: '2026-11-20T02:00:00.000Z', changes: [{ code: 'Amount', from: 10, to: 12.5 }] }] }),
    ...options.handlers,
  });
  return stub;
}

export const refused = (path: string, message: string) => fail(777, '参数错误', { detail: { issues: [{ path, message }] } });
