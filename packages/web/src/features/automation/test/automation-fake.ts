import type { contracts } from '@tritium/shared';
import { FormDefinition } from '@tritium/shared/contracts/form-design/index';
import type { AutomationDto, AutomationRunDto } from '../automation-api.ts';
import { ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';

// A fake server for the automation page: an order form (f_order) that writes deliveries (f_delivery), its
// automations kept in memory, a run log and the test run, answering in the shapes of contracts/automation.

export const orderDefinition = () =>
  FormDefinition.parse({
    attributes: { displayName: '订单' },
    controls: [
      { type: 'textBox', code: 'Customer', options: { displayName: '客户' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额' } },
      { type: 'dateTime', code: 'DueDate', options: { displayName: '交付日期' } },
      { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [{ type: 'textBox', code: 'Sku', options: { displayName: '物料' } }] },
    ],
  });

const viewField = (code: string, title: string, controlType: string, dataType: string, operators: string[]) => ({ code, title, controlType, dataType, sortable: true, operators });
const ORDER_FIELDS = [
  viewField('Customer', '客户', 'textBox', 'string', ['Equal', 'Contains', 'IsBlank']),
  viewField('Amount', '金额', 'number', 'decimal', ['Equal', 'Above', 'Below']),
  viewField('DueDate', '交付日期', 'dateTime', 'datetime', ['Equal', 'Above']),
  viewField('OwnerId', '拥有者', 'system', 'user', ['Equal']),
];
const assocField = (code: string, displayName: string, isSystem = false) => ({ code, displayName, controlType: 0, typeKey: 'textBox', dataType: 'string', isSystem });
const formNode = (code: string, displayName: string) => ({ code, objectId: `o-${code}`, parentCode: 'sales', appCode: 'sales', displayName, icon: '', iconColor: '', nodeType: 200, summary: '', appState: 'Normal', source: 'Own', state: 'Normal', url: null, sortKey: 0, permission: 'administrator' });

export const savedAutomation = (extra: Partial<AutomationDto> = {}): AutomationDto => ({
  id: 'a1',
  schemaCode: 'f_order',
  name: '订单生效后通知负责人',
  enabled: true,
  trigger: { type: 'effective' },
  condition: null,
  steps: [{ id: 'S1', name: '', type: 'notification', recipients: { owner: true, creator: false, fields: [], userIds: [], addresses: [] }, title: '订单{Customer}已生效', content: '' }],
  runAs: 'owner',
  ownerId: 'u1',
  ownerName: '张三',
  webhookUrl: null,
  nextRunTime: null,
  modifiedTime: '2026-11-25T08:00:00.000Z',
  ...extra,
});

export const run = (extra: Partial<AutomationRunDto> = {}): AutomationRunDto => ({
  runId: 'r1',
  automationId: 'a1',
  automationName: '订单生效后通知负责人',
  triggerType: 'effective',
  objectId: 'o-1001',
  state: 'Succeeded',
  attempts: 1,
  depth: 0,
  inputs: { Customer: '华东贸易' },
  steps: [{ stepId: 'S1', type: 'notification', name: '', ok: true, output: { sentTo: ['张三'] }, error: null, durationMs: 12 }],
  error: null,
  durationMs: 40,
  createdTime: '2026-11-26T01:00:00.000Z',
  finishedTime: '2026-11-26T01:00:01.000Z',
  ...extra,
});

type Handlers = Parameters<typeof stubFetch>[0];
type PluginInstance = contracts.PluginInstanceDto;

/** A template's instance in GET /v1/plugin/instances, offering one automation step. */
export const pluginInstance = (code: 'payment' | 'attendance', status: PluginInstance['status'], name: string): PluginInstance =>
  ({ code, name, templateCode: code, kind: code, status, offers: { controls: code === 'payment' ? ['plugin'] : [], automationActions: [code], methods: [] }, custom: null });

interface StubOptions {
  automations?: AutomationDto[];
  runs?: AutomationRunDto[];
  /** The order form's definition (default orderDefinition()). */
  definition?: ReturnType<typeof orderDefinition>;
  /** The engine's plugin instances (default none installed). */
  plugins?: PluginInstance[];
  /** Routes answered differently, or more of them. */
  handlers?: Handlers;
}

export function stubAutomationServer(options: StubOptions = {}) {
  const state = { automations: options.automations ?? [], runs: options.runs ?? [] };
  const saves: RecordedCall[] = [];
  const definition = options.definition ?? orderDefinition();
  const stub = stubFetch({
    'GET /v1/plugin/instances': () => ok({ items: options.plugins ?? [] }),
    'POST /v1/formdesign/load': () =>
      ok({
        schemaCode: 'f_order', appCode: 'sales', nodeType: 200,
        draft: { definition, version: 2, savedTime: '2026-11-20T08:00:00.000Z' },
        published: { definition, version: 2, savedTime: '2026-11-20T08:00:00.000Z', publishedTime: '2026-11-20T08:00:00.000Z' },
        hasUnpublishedChanges: false,
      }),
    'GET /v1/view/designer/load': () => ok({ schemaCode: 'f_order', views: [], fields: ORDER_FIELDS }),
    'GET /v1/functionNode/app/feature/list': () => ok({ list: [formNode('f_order', '订单'), formNode('f_delivery', '发货单')], defaultSchemaCode: 'f_order' }),
    'POST /v1/functionnode/list/bykeyword': () => ok({ list: [] }),
    'POST /v1/formdesign/associationform/field': () =>
      ok({ schemaCode: 'f_delivery', displayName: '发货单', fields: [assocField('OrderNo', '订单号'), assocField('Receiver', '收货人'), assocField('SeqNo', '流水号', true)], childSchemas: [] }),
    'POST /v1/bizdata/view/query': () => ok({ list: [{ ObjectId: 'o-1001', Name: '华东贸易的订单' }], total: 1, hasMore: false }),
    'POST /v1/automatic/list': () => ok({ automations: state.automations }),
    'GET /v1/connectors/choices': () => ok({ items: [{ code: 'GetCustomer', name: '查询客户', connectionName: '金蝶 ERP', outputs: ['customerName', 'credit'] }] }),
    'POST /v1/automatic/save': (call) => {
      saves.push(call);
      const body = call.body as { automation: Omit<AutomationDto, 'id'> & { id?: string } };
      const id = body.automation.id ?? `a${state.automations.length + 1}`;
      const saved = savedAutomation({ ...body.automation, id, webhookUrl: body.automation.trigger.type === 'webhook' ? `/v1/automatic/webhook/${id}?token=s3cret` : null });
      state.automations = [...state.automations.filter((a) => a.id !== saved.id), saved];
      return ok({ automation: saved });
    },
    'POST /v1/automatic/enable': (call) => {
      const id = (call.body as { id: string }).id;
      state.automations = state.automations.map((a) => (a.id === id ? { ...a, enabled: true } : a));
      return ok({});
    },
    'POST /v1/automatic/disable': (call) => {
      const id = (call.body as { id: string }).id;
      state.automations = state.automations.map((a) => (a.id === id ? { ...a, enabled: false } : a));
      return ok({});
    },
    'POST /v1/automatic/delete': (call) => {
      state.automations = state.automations.filter((a) => a.id !== (call.body as { id: string }).id);
      return ok({});
    },
    'POST /v1/automatic/logs': (call) => {
      const body = call.body as { state?: string; keyword?: string };
      const runs = state.runs.filter((r) => (!body.state || r.state === body.state) && (!body.keyword || JSON.stringify(r).includes(body.keyword)));
      return ok({ total: runs.length, runs });
    },
    'POST /v1/automatic/retry': (call) => {
      const runId = (call.body as { runId: string }).runId;
      state.runs = state.runs.map((r) => (r.runId === runId ? { ...r, state: 'Waiting', attempts: r.attempts + 1 } : r));
      return ok({});
    },
    'POST /v1/automatic/testrun': () =>
      ok({ matched: true, steps: [{ stepId: 'S1', type: 'insert', name: '生成发货单', ok: true, output: { inserted: [{ OrderNo: 'o-1001' }] }, error: null, durationMs: 8 }], error: null }),
    'POST /v1/bizdata/action/automation': () => ok({ runIds: ['run-now-1'] }),
    'GET /v1/org/role/list': () => ok({ list: [{ id: 'role-sales', name: '销售', groupName: null, memberCount: 3 }], total: 1 }),
    ...options.handlers,
  });
  return { ...stub, state, saves };
}
