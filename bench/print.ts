/**
 * Print benchmark (issue 24, must show; docs/decisions/0050), on PostgreSQL:
 * - a batch print job of RECORDS records (each with LINES sub-table rows, a QR code and a barcode, one A5 page a
 *   record) through the job runner in this process: its time from claim to Complete, pages per second, the server
 *   process's peak RSS and the peak RSS of the Chromium processes it started (sampled every 100 ms);
 * - the same records drawn straight with pdf-lib + fontkit and the embedded CJK font (the other candidate of the
 *   decision): text and table lines only, no paging logic beyond one record a page, no QR code. Debian's
 *   wqy-microhei is a font collection (.ttc) pdf-lib cannot embed; its first face is copied out as a .ttf first.
 * Run: node --import tsx bench/print.ts   (writes bench/results/print.json and the "Print" section of docs/performance.md)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PDFDocument, rgb } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import ExcelJS from 'exceljs';
import { onThrowawayPostgres, post, saveResult, writePerformanceSection } from './lib.ts';
import { openBenchApp, registerBenchEngine, round1 } from './setup.ts';

const RECORDS = Number(process.env.BENCH_PRINT_RECORDS ?? 200);
const LINES = Number(process.env.BENCH_PRINT_LINES ?? 5);
const FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

const elements = [
  { id: 'title', type: 'label', text: '送货单', x: 0, y: 0, width: 124, height: 10, fontSize: 16, bold: true, align: 'center' },
  { id: 'c', type: 'field', field: 'Customer', x: 0, y: 12, width: 80, height: 8 },
  { id: 'n', type: 'field', field: 'DeliveryNo', x: 0, y: 20, width: 80, height: 8 },
  { id: 'qr', type: 'qrCode', source: { kind: 'link' }, x: 96, y: 12, width: 28, height: 28 },
  { id: 'bar', type: 'barcode', source: { kind: 'field', field: 'DeliveryNo' }, x: 0, y: 30, width: 60, height: 12 },
  { id: 'g', type: 'subTable', field: 'Goods', columns: [], x: 0, y: 44, width: 124, height: 10 },
  { id: 'sign', type: 'label', text: '收货人签字：', x: 0, y: 56, width: 60, height: 8 },
  { id: 'p', type: 'pageNumber', x: 44, y: 180, width: 36, height: 6 },
];

/** RSS (kB) of the processes below `pid`. */
function childrenRss(pid: number): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=']).toString().trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const below = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, pp] of rows) if (below.has(pp!) && !below.has(p!)) { below.add(p!); grew = true; }
  }
  return rows.filter(([p]) => p !== pid && below.has(p!)).reduce((sum, [, , rss]) => sum + rss!, 0);
}

/** The first face of a TrueType collection as a standalone .ttf (tables copied, offsets rewritten). */
function firstFaceOf(ttc: Buffer): Buffer {
  const at = ttc.readUInt32BE(12);
  const tables = ttc.readUInt16BE(at + 4);
  const head = Buffer.from(ttc.subarray(at, at + 12 + tables * 16));
  const parts: Buffer[] = [head];
  let offset = head.length;
  for (let i = 0; i < tables; i++) {
    const record = 12 + i * 16;
    const from = ttc.readUInt32BE(at + record + 8);
    const length = ttc.readUInt32BE(at + record + 12);
    head.writeUInt32BE(offset, record + 8);
    const padded = Buffer.alloc((length + 3) & ~3);
    ttc.copy(padded, 0, from, from + length);
    parts.push(padded);
    offset += padded.length;
  }
  return Buffer.concat(parts);
}

async function pdfLibRun(records: { customer: string; no: string; goods: [string, number][] }[]) {
  const started = performance.now();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(firstFaceOf(readFileSync(FONT)), { subset: true });
  const mm = (v: number) => (v / 25.4) * 72;
  for (const r of records) {
    const page = doc.addPage([mm(148), mm(210)]);
    const top = (y: number) => mm(210 - 12 - y);
    page.drawText('送货单', { x: mm(60), y: top(8), size: 16, font });
    page.drawText(`收货单位：${r.customer}`, { x: mm(12), y: top(18), size: 10, font });
    page.drawText(`送货单号：${r.no}`, { x: mm(12), y: top(26), size: 10, font });
    let y = 50;
    for (const [item, qty] of [['货品', '数量'] as [string, string | number], ...r.goods]) {
      page.drawRectangle({ x: mm(12), y: top(y + 6), width: mm(124), height: mm(6), borderColor: rgb(0, 0, 0), borderWidth: 0.7 });
      page.drawText(String(item), { x: mm(13), y: top(y + 4.5), size: 9, font });
      page.drawText(String(qty), { x: mm(80), y: top(y + 4.5), size: 9, font });
      y += 6;
    }
    page.drawText('收货人签字：', { x: mm(12), y: top(y + 8), size: 10, font });
  }
  const bytes = await doc.save();
  return { seconds: (performance.now() - started) / 1000, bytes: bytes.length, pages: records.length };
}

async function measure(databaseUrl: string, version: string) {
  const { app, database } = await openBenchApp(databaseUrl);
  try {
    const { headers } = await registerBenchEngine(app, '13600000024');
    await post(app, '/v1/functionnode', { code: 'BenchPrint', displayName: '压测打印', nodeType: 190 }, headers);
    await post(app, '/v1/functionnode', { code: 'BenchDelivery', appCode: 'BenchPrint', displayName: '送货单', nodeType: 200 }, headers);
    const loaded = await post(app, '/v1/formdesign/load', { schemaCode: 'BenchDelivery' }, headers);
    const controls = [
      { type: 'textBox', code: 'Customer', options: { displayName: '收货单位' } },
      { type: 'textBox', code: 'DeliveryNo', options: { displayName: '送货单号' } },
      { type: 'gridView', code: 'Goods', options: { displayName: '货品' }, controls: [{ type: 'textBox', code: 'Item', options: { displayName: '货品' } }, { type: 'number', code: 'Qty', options: { displayName: '数量' } }] },
    ];
    const saved = await post(app, '/v1/formdesign/save', { schemaCode: 'BenchDelivery', baseVersion: loaded.draft.version, definition: { attributes: { displayName: '送货单' }, controls } }, headers);
    await post(app, '/v1/formdesign/publish', { schemaCode: 'BenchDelivery', version: saved.version }, headers);
    await post(app, '/v1/toolkit/print/template/save', { schemaCode: 'BenchDelivery', name: '送货单', isDefault: true, layout: { page: { size: 'A5' }, elements } }, headers);
    const records = Array.from({ length: RECORDS }, (_, i) => ({ customer: `华东建材第${i + 1}分公司`, no: `SH-${String(i + 1).padStart(5, '0')}`, goods: Array.from({ length: LINES }, (_, j) => [`松木板规格${j + 1}`, j + 1] as [string, number]) }));
    for (const r of records) {
      await post(app, '/v1/form/action/execute', { schemaCode: 'BenchDelivery', actionCode: 'Submit', values: { Customer: r.customer, DeliveryNo: r.no }, children: { Goods: r.goods.map(([Item, Qty]) => ({ Item, Qty })) } }, headers);
    }

    // Warm the browser with a one-record job, then the batch.
    const first = (await post(app, '/v1/bizdata/query', { schemaCode: 'BenchDelivery', pageIndex: 0, pageSize: 1 }, headers)).list[0].ObjectId;
    await post(app, '/v1/toolkit/print/paper', { schemaCode: 'BenchDelivery', objectIds: [first] }, headers);
    while (await app.extras.jobs.runOnce());

    const { taskId } = await post(app, '/v1/toolkit/print/paper', { schemaCode: 'BenchDelivery' }, headers);
    let chromiumPeakKb = 0;
    const sampler = setInterval(() => (chromiumPeakKb = Math.max(chromiumPeakKb, childrenRss(process.pid))), 100);
    const started = performance.now();
    while (await app.extras.jobs.runOnce());
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const done = await post(app, '/v1/toolkit/print/progress', { taskId }, headers);
    if (done.state !== 'Complete') throw new Error(`print job ended ${done.state}: ${done.message}`);
    const fileKb = Math.round((await app.inject({ method: 'GET', url: done.downloadUrl })).rawPayload.length / 1024);

    // The same batch through an Excel template (docs/decisions/0066): a workbook filled per record, as HTML, one PDF.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('送货单', { pageSetup: { paperSize: 11, orientation: 'portrait' } });
    sheet.addRow(['送货单', '{DeliveryNo}']);
    sheet.addRow(['收货单位', '{Customer}']);
    sheet.addRow(['货品', '数量']);
    sheet.addRow(['{Goods.Item}', '{Goods.Qty}']);
    sheet.addRow(['收货人签字：', '']);
    const uploaded = await app.inject({ method: 'POST', url: '/v1/file/upload', query: { scene: 'gridImportFile', fileName: 'bench.xlsx' }, headers: { ...headers, 'content-type': 'application/octet-stream' }, payload: Buffer.from(await book.xlsx.writeBuffer()) });
    const excel = await post(app, '/v1/toolkit/print/excel/save', { schemaCode: 'BenchDelivery', name: '送货单表格', fileId: uploaded.json().data.fileId }, headers);
    const excelTask = (await post(app, '/v1/toolkit/print/paper', { schemaCode: 'BenchDelivery', excelTemplateId: excel.templateId }, headers)).taskId;
    const excelStarted = performance.now();
    while (await app.extras.jobs.runOnce());
    const excelSeconds = (performance.now() - excelStarted) / 1000;
    const excelDone = await post(app, '/v1/toolkit/print/progress', { taskId: excelTask }, headers);
    if (excelDone.state !== 'Complete') throw new Error(`Excel print job ended ${excelDone.state}: ${excelDone.message}`);
    const direct = await pdfLibRun(records);
    return {
      postgres: version,
      records: RECORDS,
      linesPerRecord: LINES,
      chromium: { seconds: round1(seconds), pages: done.pages, pagesPerSecond: round1(done.pages / seconds), kb: fileKb },
      excel: { seconds: round1(excelSeconds), pages: excelDone.pages, pagesPerSecond: round1(excelDone.pages / excelSeconds) },
      serverPeakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      chromiumPeakRssMb: Math.round(chromiumPeakKb / 1024),
      pdfLib: { seconds: round1(direct.seconds), pages: direct.pages, pagesPerSecond: round1(direct.pages / direct.seconds), kb: Math.round(direct.bytes / 1024) },
    };
  } finally {
    await app.close();
    await database.close();
  }
}

const figures = await onThrowawayPostgres('bench_print', measure);
if (figures) {
  saveResult('print', figures);
  writePerformanceSection('Print', [
    '## Print',
    '',
    `Measured by \`npm run bench:print\` (bench/print.ts) on PostgreSQL ${figures.postgres}, on a 2-core machine shared with other engineers' builds and`,
    'test runs at the time (figures are pessimistic and vary between runs).',
    '',
    `| what | records | pages | time | pages/s | peak RSS |`,
    '|---|---|---|---|---|---|',
    `| print job, Chromium page.pdf (LoadData → Complete, ${figures.linesPerRecord} sub-table rows, QR code and barcode a record) | ${figures.records} | ${figures.chromium.pages} | ${figures.chromium.seconds} s | ${figures.chromium.pagesPerSecond} | server process ${figures.serverPeakRssMb} MB, Chromium ${figures.chromiumPeakRssMb} MB |`,
    `| the same records through an Excel template (a workbook filled per record, as HTML, one PDF) | ${figures.records} | ${figures.excel.pages} | ${figures.excel.seconds} s | ${figures.excel.pagesPerSecond} | (in the process above) |`,
    `| the same records drawn with pdf-lib + fontkit (text and table lines only, fixed rows, no QR) | ${figures.records} | ${figures.pdfLib.pages} | ${figures.pdfLib.seconds} s | ${figures.pdfLib.pagesPerSecond} | (in the process above) |`,
    '',
    `The print template numbers its pages, so each record counts its own: the batch is laid out twice, once to find where each record starts and once with the counts (docs/decisions/0067); the file is ${figures.chromium.kb} KB.`,
    '',
    'The server process RSS is its peak over the whole run (the records were saved through the API first). Chromium is',
    'started on the first print and kept; its RSS is the sum over its processes while the batch ran (pages they share are',
    'counted once per process, so the sum overstates it). The decision between',
    'the two ways is docs/decisions/0050-print-templates-and-pdf.md.',
  ]);
}
