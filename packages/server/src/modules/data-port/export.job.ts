import { notify } from '../notification/notify.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { excelJs } from '../../lib/lazy-packages.ts';
import type { JobHandler } from '../../jobs/job-registry.ts';
import { formatDateTime } from '@tritium/shared/controls/index';
import { assertCan } from '../permission/form-rights.ts';
import { childRowsOf, findRecordsByIds } from '../business-data/records.repo.ts';
import { anyDb, getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { orderedKeys } from '../query/query.service.ts';
import { presentChildRow, presentRecord } from '../business-data/record.presenter.ts';
import { valueToCell, type Cell, type CellLink } from './cell-values.ts';
import { loadLookups } from './lookups.ts';
import { exportColumnsOf, type PortColumn } from './port-columns.ts';
import { exportNarrowing, viewColumnCodes } from './export-view.ts';
import { keepWorkbook, taskOfJob, type DataPortDeps } from './task-files.ts';
import { SheetWriter } from './xlsx-worker.ts';
import type { SheetWorkerData } from './xlsx-sheet.worker.ts';
import type { ExportOptions } from './task-repo.ts';

// The export job (docs/decisions/0020, 0082): the keys of the records the query engine narrows (the same filter
// model, status, sort and data rules as a list) in the list's order, then the records a chunk of keys at a time,
// written row by row to a streaming workbook on disk, so memory stays flat however many rows (but for the keys).
// A record with sub-table rows takes one sheet row per sub-table row, its own cells on the first (the layout an
// import reads back). Files are links signed for seven days.

export const DATA_EXPORT_JOB = 'data.export';
/** Records read per statement. */
const CHUNK = 1000;
const LINK_TTL_SECONDS = 7 * 24 * 3600;
const STATUS_TEXT = ['草稿', '生效', '进行中', '已作废'];

export function dataExportHandler(deps: DataPortDeps): JobHandler {
  return {
    // Idempotent, nobody to decide: a job whose process died is taken up by another (docs/decisions/0129).
    requeueWhenLost: true,
    async run(ctx) {
      const { edb, task, owner } = await taskOfJob(ctx);
      const taskId = task.id;
      const options = task.options as ExportOptions;
      const form = await getRuntimeFormOrThrow(edb, owner, task.schema_code);
      // The rights as they are when the export runs: a right taken away meanwhile stops it.
      assertCan(form.rights, 'export');
      const viewed = options.columns ? undefined : await viewColumnCodes(edb, form, options.viewCode);
      const columns = exportColumnsOf(form, options.columns ?? (viewed?.length ? viewed : undefined));
      const query = await exportNarrowing(owner, { schemaCode: form.node.code, filter: options.filter, sort: options.sort, viewCode: options.viewCode, keyword: options.keyword });
      const grids = [...new Map(columns.filter((c) => c.grid).map((c) => [c.grid!.code, c.grid!])).values()];
      const lookups = await loadLookups(edb);
      const link = (fileId: string) => `${options.baseUrl}${deps.urls.sign(ctx.engineCode, fileId, LINK_TTL_SECONDS).url}&download=1`;
      const dir = await mkdtemp(path.join(os.tmpdir(), 'tritium-export-'));
      try {
        const file = path.join(dir, 'export.xlsx');
        const systemCell = (c: PortColumn, record: Record<string, unknown>): Cell => {
          const v = record[c.system!];
          if (v == null) return null;
          if (c.system === 'Status') return STATUS_TEXT[Number(v)] ?? String(v);
          if (c.system === 'CreatedBy' || c.system === 'OwnerId') return lookups.userNames.get(String(v)) ?? String(v);
          if (c.system === 'OwnerDeptId') return lookups.departmentNames.get(String(v)) ?? String(v);
          if (c.system === 'CreatedTime' || c.system === 'ModifiedTime') return formatDateTime(String(v), 'yyyy-mm-dd hh:mm:ss');
          return String(v);
        };
        // Every key first, in the list's order (one statement), then the records a chunk of keys at a time
        // (the chunk's keys as one array parameter, docs/decisions/0096). The next chunk is read while the current one
        // is formatted and written (0099): reading is mostly waiting on the database, writing is CPU work.
        const { ids: keys } = await orderedKeys(owner, { ...query, status: options.status });
        const sheet = await sheetOf({ file, sheetName: form.definition.attributes.displayName.slice(0, 31) || 'Sheet1', header: columns.map((c) => c.header) }, keys.length >= deps.workerFromRows);
        let done = 0;
        try {
          const readChunk = async (ids: string[]) => {
            const found = new Map((await findRecordsByIds(edb, form, ids)).map((r) => [String(r.ObjectId), r]));
            const children = new Map<string, Map<string, Record<string, unknown>[]>>();
            for (const grid of grids) {
              const byParent = new Map<string, Record<string, unknown>[]>();
              for (const row of await childRowsOf(edb, grid, ids)) {
                const list = byParent.get(String(row.ParentObjectId)) ?? [];
                list.push(presentChildRow(grid, row));
                byParent.set(String(row.ParentObjectId), list);
              }
              children.set(grid.code, byParent);
            }
            return { found, children };
          };
          let next = keys.length ? readChunk(keys.slice(0, CHUNK)) : undefined;
          for (let at = 0; at < keys.length; at += CHUNK) {
            const ids = keys.slice(at, at + CHUNK);
            const { found, children } = await next!;
            next = at + CHUNK < keys.length ? readChunk(keys.slice(at + CHUNK, at + 2 * CHUNK)) : undefined;
            // Awaited at the next turn; a failure meanwhile is not "unhandled".
            next?.catch(() => undefined);
            for (const id of ids) {
              const row = found.get(id);
              // Deleted since the keys were read: not exported.
              if (!row) continue;
              const record = presentRecord(form, row);
              const height = Math.max(1, ...grids.map((g) => children.get(g.code)!.get(id)?.length ?? 0));
              for (let i = 0; i < height; i++) {
                const cells: (Cell | CellLink)[] = columns.map((c) => {
                  if (c.grid) return valueToCell(c.field!, children.get(c.grid.code)!.get(id)?.[i]?.[c.field!.code], lookups, link);
                  if (i > 0) return null;
                  return c.system ? systemCell(c, record) : valueToCell(c.field!, record[c.field!.code], lookups, link);
                });
                await sheet.add(cells);
              }
              done++;
            }
            await ctx.reportProgress((Math.min(keys.length, at + CHUNK) / keys.length) * 95, `${done}/${keys.length}`);
          }
          await sheet.finish();
        } finally {
          await sheet.close();
        }
        const fileId = await keepWorkbook(edb, deps.store, ctx.engineCode, owner.userId, file, `${form.definition.attributes.displayName}-${formatDateTime(new Date().toISOString(), 'yyyy-mm-dd').replaceAll('-', '')}.xlsx`);
        await edb.updateTable('data_port_tasks').set({ total: done, result_file_id: fileId }).where('id', '=', taskId).execute();
        await notify(edb, ctx.engineCode, [owner.userId], { category: 'dataport', title: `导出完成：${form.definition.attributes.displayName}`, content: `共 ${done} 条` });
        return { total: done };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

interface SheetOut {
  add(cells: (Cell | CellLink)[]): Promise<void> | void;
  finish(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The export's sheet: written in a worker thread from deps.workerFromRows rows on (docs/decisions/0106), so the rows'
 * XML and the zip run on the second core while this thread reads and formats the next records; else here.
 */
async function sheetOf(data: SheetWorkerData, inWorker: boolean): Promise<SheetOut> {
  if (inWorker) return new SheetWriter(data);
  const workbook = new (await excelJs()).stream.xlsx.WorkbookWriter({ filename: data.file, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(data.sheetName);
  sheet.addRow(data.header).commit();
  return {
    add: (cells) => sheet.addRow(cells).commit(),
    finish: async () => {
      sheet.commit();
      await workbook.commit();
    },
    close: async () => undefined,
  };
}
