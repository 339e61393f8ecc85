import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { importTask } from './data-port-fake.ts';

// A fake server for rolling back an import from the history (docs/decisions/0031): one finished import that may be
// rolled back; once asked, its roll back runs on the next poll and finishes (one record left) on the one after.

const rollback = (over: Record<string, unknown>) => ({ state: 'Waiting', progress: 0, message: null, rolledBackBy: 'u1', deleted: 0, restored: 0, refused: 0, gone: 0, finishedTime: null, ...over });

export function stubRollback(options: { refuse?: boolean } = {}) {
  let asked = false;
  let polls = 0;
  const finished = importTask({ taskId: 'imp-1', state: 'Finished', progress: 100, total: 5, inserted: 3, updated: 2, finishedTime: '2026-11-23T01:02:00.000Z', rollback: null, rollbackOffered: true });
  return stubFetch({
    'POST /v1/dataPort/LoadTaskRecords': () => {
      if (!asked) return ok({ list: [finished], total: 1 });
      polls++;
      const r = polls < 2 ? rollback({ state: 'Running', progress: 40 }) : rollback({ state: 'Finished', progress: 100, deleted: 3, restored: 1, refused: 1, finishedTime: '2026-11-23T02:00:00.000Z' });
      return ok({ list: [{ ...finished, rollback: r, rollbackOffered: false }], total: 1 });
    },
    'POST /v1/dataPort/RollbackImportTask': () => {
      if (options.refuse) return fail(300102, '该导入已回滚，不能再次回滚');
      asked = true;
      return ok({ taskId: 'imp-1', rollback: rollback({}) });
    },
    'POST /v1/dataPort/getRollbackReport': () =>
      ok({ total: 1, rows: [{ rowNo: 3, objectId: '0190a000-0000-7000-8000-0000000000aa', action: 'update', outcome: 'refused', note: '导入后已被修改（编辑、流程处理或业务规则），未回滚' }] }),
  });
}
