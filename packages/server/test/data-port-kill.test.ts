import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { openDatabase } from '../src/db/database.ts';
import { engineWithForm, killableServer, stopProcess, until } from './server-process.ts';

// test-databases: postgres — the job lease and sweep after kill -9 are database-neutral; import-rollback-kill covers PGlite's durability (docs/testing.md "Runs on both databases").

// An import interrupted by kill -9 (issue 10, docs/decisions/0020): the real server runs as a child process on a
// temp data folder (PGlite) or a throw-away PostgreSQL database; the import is slowed on purpose (batches of 50
// records, 150 ms apart) and the lease is 1.5 s. After the restart the task is Timeout; the retry finishes and no
// row exists twice.

const isPostgres = process.env.TEST_DB_KIND === 'postgres';
const ROWS = 1000;

describe('import interrupted by a server kill', () => {
  it('ends Timeout, and the retry completes the import with every row exactly once', async () => {
    const platform = await killableServer('import-kill', { TRITIUM_IMPORT_BATCH_SIZE: '50', TRITIUM_IMPORT_BATCH_DELAY_MS: '150', TRITIUM_XLSX_WORKER_FROM_ROWS: '0' });
    const { base, dataDir, databaseUrl } = platform;
    const up = () => platform.start(90_000);
    let server = await up();

    const { post, headers, session, formCode } = await engineWithForm(base, {
      mobile: `136${String(process.pid % 10000).padStart(4, '0')}8888`, engineName: '导入测试公司', appCode: 'KillImport', appName: '导入应用', formName: '订单',
      controls: [{ type: 'textBox', code: 'Code', options: { displayName: '编号' } }, { type: 'number', code: 'Qty', options: { displayName: '数量' } }],
    });
    const form = { code: formCode };

    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('数据');
    sheet.addRow(['编号', '数量']);
    for (let i = 0; i < ROWS; i++) sheet.addRow([`K${String(i).padStart(5, '0')}`, i]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const uploaded = (await (await fetch(`${base}/v1/file/upload?scene=gridImportFile&fileName=orders.xlsx`, { method: 'POST', headers: { ...headers(), 'content-type': 'application/octet-stream' }, body: bytes })).json()) as any;
    const { taskId } = await post('/v1/dataImport/addImportTask', { schemaCode: form.code, fileId: uploaded.data.fileId });
    const taskOf = async () => (await post('/v1/dataPort/LoadTaskRecords', { TaskIds: [taskId] })).list[0];

    const seen = await until('import progress', async () => {
      const p = await taskOf();
      return p.state === 'Running' && p.progress > 10 ? p : undefined;
    });
    expect(seen.progress).toBeLessThan(90);
    await stopProcess(server);

    server = await up();
    expect(await until('Timeout', async () => {
      const p = await taskOf();
      return p.state === 'Timeout' ? p : undefined;
    })).toMatchObject({ attempts: 1, type: 'Import' });
    expect(await post('/v1/dataPort/RetryTimeoutTasks', { TaskIds: [taskId] })).toEqual({ retried: [taskId] });
    const done = await until('the retried import', async () => {
      const p = await taskOf();
      if (p.state === 'Failed') throw new Error(p.message);
      return p.state === 'Finished' ? p : undefined;
    }, 60_000);
    expect(done).toMatchObject({ attempts: 2, total: ROWS, inserted: ROWS, rejected: 0 });

    await stopProcess(server, 'SIGTERM');
    const database = await openDatabase(isPostgres ? { databaseUrl } : { pgliteDataDir: path.join(dataDir, 'pglite') });
    try {
      const schema = `e_${session.engineCode}`;
      const table = (await sql<{ t: string }>`select table_name as t from ${sql.table(`${schema}.form_tables`)} where schema_code = ${form.code} and grid_key = ''`.execute(database.db)).rows[0]!.t;
      const counts = await sql<{ total: number; distinct: number; marks: number }>`
        select count(*)::int as total, count(distinct "Code")::int as distinct,
          (select count(*)::int from ${sql.table(`${schema}.data_import_rows`)} where task_id = ${taskId}) as marks
        from ${sql.table(`${schema}.${table}`)}`.execute(database.db);
      expect(counts.rows[0]).toEqual({ total: ROWS, distinct: ROWS, marks: ROWS });
    } finally {
      await database.close();
    }
  }, 240_000);
});
