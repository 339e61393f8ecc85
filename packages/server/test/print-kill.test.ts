import { describe, expect, it } from 'vitest';
import { engineWithForm, killableServer, stopProcess, until } from './server-process.ts';

// test-databases: postgres — the job lease and sweep after kill -9 are database-neutral; import-rollback-kill covers PGlite's durability (docs/testing.md "Runs on both databases").

// A 60-record print job interrupted by kill -9 (issue 24; docs/decisions/0050): the real server runs as a child
// process with a 1.5 s job lease, the job slowed on purpose (a pause after each 50 assembled records: the kill lands in the one after the first 50). It is killed
// while it assembles; after the restart the job is not stuck: the sweep ends it Error and retryable, and the retry
// completes it with every record in the PDF.

const RECORDS = 60;

describe('print job interrupted by a server kill', () => {
  it('ends Error and retryable after the restart, and the retry completes it', async () => {
    const platform = await killableServer('print-kill', { TRITIUM_PRINT_CHUNK_DELAY_MS: '1500' });
    const { base } = platform;
    let server = await platform.start(90_000);

    const { post, formCode } = await engineWithForm(base, {
      mobile: `137${String(process.pid % 10000).padStart(4, '0')}7777`, engineName: '打印测试公司', appCode: 'KillPrint', appName: '打印应用', formName: '送货单',
      controls: [{ type: 'textBox', code: 'Code', options: { displayName: '单号' } }, { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [{ type: 'textBox', code: 'Item', options: { displayName: '货品' } }] }],
    });
    const form = { code: formCode };
    for (let i = 0; i < RECORDS; i++) {
      await post('/v1/form/action/execute', { schemaCode: form.code, actionCode: 'Save', values: { Code: `D${String(i).padStart(3, '0')}` }, children: { Lines: [{ Item: '螺丝' }, { Item: '螺母' }] } });
    }

    const { taskId } = await post('/v1/toolkit/print/paper', { schemaCode: form.code });
    const progress = () => post('/v1/toolkit/print/progress', { taskId });
    const seen = await until('the job assembling', async () => {
      const p = await progress();
      return p.state === 'AssembleData' ? p : undefined;
    });
    expect(seen.progress).toBeLessThan(62);
    await stopProcess(server);

    server = await platform.start(90_000);
    const failed = await until('Error after the restart', async () => {
      const p = await progress();
      return p.state === 'Error' ? p : undefined;
    });
    expect(failed).toMatchObject({ retryable: true, downloadUrl: null });
    // Queued again; a runner that heard the retry may have claimed it already (docs/decisions/0108).
    expect(['Wait', 'Print', 'LoadData', 'AssembleData', 'CalcPage', 'GenerateFile']).toContain((await post('/v1/toolkit/print/retry', { taskId })).state);
    const done = await until('the retried job', async () => {
      const p = await progress();
      if (p.state === 'Error') throw new Error(p.message);
      return p.state === 'Complete' ? p : undefined;
    }, 120_000);
    expect(done).toMatchObject({ total: RECORDS, retryable: false });
    expect(done.pages).toBe(RECORDS);
    const pdf = await fetch(`${base}${done.downloadUrl}`);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect((await pdf.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    await stopProcess(server, 'SIGTERM');
  }, 300_000);
});
