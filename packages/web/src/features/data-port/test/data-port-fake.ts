import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';

// A fake server for the import wizard, the export dialog and the history (docs/decisions/0020): one form with three
// importable columns; an import task that runs on the first poll and finishes (two rows rejected) on the second.

export const COLUMNS = [
  { code: 'SeqNo', displayName: '流水号', controlType: 'system', grid: null, importable: true, required: false },
  { code: 'ObjectId', displayName: 'ObjectId', controlType: 'system', grid: null, importable: true, required: false },
  { code: 'Code', displayName: '编号', controlType: 'textBox', grid: null, importable: true, required: false },
  { code: 'Qty', displayName: '数量', controlType: 'number', grid: null, importable: true, required: true },
  { code: 'Lines.Item', displayName: '明细.品名', controlType: 'textBox', grid: 'Lines', importable: true, required: false },
];

const base = { schemaCode: 'f_order', exportState: null, importType: 'Upsert', dataState: 'Effective', message: null, fileName: '订单.xlsx', total: 0, inserted: 0, updated: 0, rejected: 0, attempts: 1, createdTime: '2026-11-23T01:00:00.000Z', finishedTime: null, hasResult: false, hasErrorReport: false };
export const importTask = (over: Record<string, unknown>) => ({ ...base, taskId: 'task-1', type: 'Import', state: 'Waiting', progress: 0, ...over });

export function stubDataPort(options: { failImport?: boolean } = {}) {
  let polls = 0;
  const history = [
    importTask({ taskId: 'old-1', state: 'Timeout', progress: 40 }),
    { ...base, taskId: 'old-2', type: 'Export', state: 'Waiting', progress: 0, exportState: 'Waiting', importType: null, dataState: null },
    { ...base, taskId: 'old-3', type: 'Export', state: 'Finished', progress: 100, exportState: 'Success', importType: null, dataState: null, total: 12, hasResult: true },
  ];
  return stubFetch({
    'GET /v2/dataPort/getExportColumns/f_order/default': () => ok({ columns: COLUMNS }),
    // A list view whose columns are 数量 then 编号: the server puts them first and marks them.
    'GET /v2/dataPort/getExportColumns/f_order/V1': () =>
      ok({ viewCode: 'V1', columns: [COLUMNS[3], COLUMNS[2], COLUMNS[0], COLUMNS[1], COLUMNS[4]].map((c) => ({ ...c, selected: c.code === 'Qty' || c.code === 'Code' })) }),
    'GET /v1/file/policy/upload': () => ok({ scene: 'gridImportFile', maxSizeMb: 20, maxSizeBytes: 20 * 1024 * 1024, maxCount: 1, accept: ['.xlsx', '.csv'], imageCompression: null, uploadUrl: '/v1/file/upload?scene=gridImportFile' }),
    'POST /v1/file/upload': () => ok({ fileId: '0190a000-0000-7000-8000-000000000001', name: '订单.xlsx', size: 100, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
    'POST /v1/dataImport/preview': () => ok({ headers: ['编号', '数量', '备注'], rows: [['A1', '1', '无'], ['A2', 'x', '']], mapping: [{ column: '编号', field: 'Code' }, { column: '数量', field: 'Qty' }] }),
    'POST /v1/dataImport/addImportTask': () => (options.failImport ? fail(300007, '匹配字段无效（须为已对应的主表字段）') : ok({ taskId: 'task-1' })),
    'POST /v1/dataExport/addExportTask': () => ok({ taskId: 'task-e' }),
    'POST /v1/dataPort/LoadTaskRecords': (call) => {
      const body = call.body as { TaskIds?: string[] };
      if (body.TaskIds?.[0] === 'task-1') {
        polls++;
        return ok({ list: [polls < 2 ? importTask({ state: 'Running', progress: 45 }) : importTask({ state: 'Finished', progress: 100, total: 5, inserted: 2, updated: 1, rejected: 2, hasErrorReport: true })], total: 1 });
      }
      if (body.TaskIds?.[0] === 'task-e') return ok({ list: [{ ...base, taskId: 'task-e', type: 'Export', state: 'Finished', exportState: 'Success', progress: 100, total: 7, hasResult: true, importType: null, dataState: null }], total: 1 });
      const page = body as { Type?: string; PageIndex?: number; PageSize?: number };
      const list = page.Type ? history.filter((x) => x.type === page.Type) : history;
      // The history page asks for pages: the fake pretends to hold 45 tasks, the first ones the three above.
      if (page.PageIndex && page.PageIndex > 1) return ok({ list: [importTask({ taskId: `p${page.PageIndex}`, state: 'Finished', progress: 100, fileName: `第${page.PageIndex}页.xlsx`, inserted: 3 })], total: 45 });
      return ok({ list, total: page.PageIndex ? 45 : list.length });
    },
    'GET /v1/dataPort/CancelWaitingTask/Export/old-2': () => ok({ ...history[1], state: 'Canceled', exportState: 'Cancel' }),
    'POST /v1/dataPort/RetryTimeoutTasks': () => ok({ retried: ['old-1'] }),
    'POST /v1/dataPort/getDownloadUrl': () => ok({ url: '/v1/file/download/x?engine=e&expires=1&signature=s&download=1', fileName: '错误报告.xlsx' }),
  });
}
