import { describe, expect, it } from 'vitest';
import { CODE128_PATTERNS, code128Bars, code128Encodable, code128Values } from './code128.ts';
import { BARCODE_REFUSED, PRINT_ELEMENT_KINDS } from './elements.ts';
import { defaultLayoutOf } from './default-layout.ts';
import { numbersPerRecord, RECORD_MARK, renderPrintHtml } from './render.ts';
import { PRINT_ELEMENT_TYPES, PrintLayout } from './template.ts';
import type { PrintSheet } from './data.ts';

// The print model and renderer (issue 24; docs/decisions/0050): layouts validate, bands keep what is below a grid
// below it, texts are escaped, page numbers become page counters, Code128 symbols are well formed.

const sheet = (rows = 2): PrintSheet => ({
  title: '单',
  labels: { Title: '标题', 'Lines.Item': '物品' },
  gridColumns: { Lines: ['Item'] },
  documents: [{ objectId: 'r1', values: { Title: '<b>甲</b>' }, grids: { Lines: { rows: Array.from({ length: rows }, (_, i) => ({ Item: `行${i}` })) } }, codes: { q: 'http://x/1', b: 'NO-1' }, images: {}, trace: [] }],
});

describe('print layouts', () => {
  it('fill defaults and refuse custom paper without a size, duplicate ids and margins that leave nothing', () => {
    const ok = PrintLayout.parse({ elements: [{ id: 'a', type: 'field', field: 'Title', x: 0, y: 0, width: 10, height: 5 }] });
    expect(ok.page).toMatchObject({ size: 'A4', orientation: 'portrait', margins: { top: 12 } });
    expect(ok.elements[0]).toMatchObject({ showLabel: true, fontSize: 10, align: 'left' });
    expect(PrintLayout.safeParse({ page: { size: 'custom' }, elements: [] }).success).toBe(false);
    expect(PrintLayout.safeParse({ page: { size: 'A5', margins: { top: 100, bottom: 100, left: 10, right: 10 } }, elements: [] }).success).toBe(false);
    const twice = { id: 'a', type: 'label', text: 'x', x: 0, y: 0, width: 1, height: 1 };
    expect(PrintLayout.safeParse({ elements: [twice, twice] }).success).toBe(false);
    expect(PrintLayout.safeParse({ elements: [{ ...twice, type: 'image', src: 'http://elsewhere/x.png' }] }).success).toBe(false);
  });
});

describe('the renderer', () => {
  const layout = PrintLayout.parse({
    page: { size: 'A5', orientation: 'landscape' },
    elements: [
      { id: 'f', type: 'field', field: 'Title', x: 0, y: 0, width: 50, height: 8 },
      { id: 'g', type: 'subTable', field: 'Lines', x: 0, y: 10, width: 100, height: 10 },
      { id: 'beside', type: 'label', text: '旁', x: 110, y: 12, width: 10, height: 5 },
      { id: 's', type: 'label', text: '签字', x: 0, y: 25, width: 30, height: 8 },
      { id: 'q', type: 'qrCode', source: { kind: 'link' }, x: 60, y: 0, width: 8, height: 8 },
      { id: 'p', type: 'pageNumber', x: 150, y: 120, width: 30, height: 5 },
    ],
  });
  const html = renderPrintHtml(layout, sheet());

  it('sets the paper and margins, and page numbers as counters in the bottom-right margin box', () => {
    expect(html).toContain('@page{size:210mm 148mm;margin:12mm 12mm 12mm 12mm;@bottom-right{content:"第 " counter(page) " 页 / 共 " counter(pages) " 页"');
  });

  it('escapes texts and puts what lies below or beside a grid after it', () => {
    expect(html).toContain('&lt;b&gt;甲&lt;/b&gt;');
    expect(html).not.toContain('<b>甲');
    const grid = html.indexOf('data-grid="Lines"');
    expect(html.indexOf('签字')).toBeGreaterThan(grid);
    expect(html.indexOf('旁')).toBeGreaterThan(grid);
    expect(html.indexOf('data-field="Title"')).toBeLessThan(grid);
    expect(html).toContain('<thead><tr><th>物品</th></tr></thead><tbody><tr><td>行0</td></tr><tr><td>行1</td></tr></tbody>');
    expect(html).toMatch(/data-print-element="qrCode"[^>]*><svg/);
  });

  it('draws the form layout when there is no template', () => {
    const own = defaultLayoutOf({ title: '报销', fields: ['A', 'B', 'C'], grids: ['Lines'], isWorkflow: true });
    expect(PrintLayout.safeParse(own).success).toBe(true);
    expect(own.elements.map((e) => e.type)).toEqual(['label', 'field', 'field', 'field', 'subTable', 'approvalTrace', 'pageNumber']);
    const drawn = renderPrintHtml(own, sheet(1));
    expect(drawn).toContain('data-trace="1"');
    // The fields flow two to a row, each at least a row high, so a long text pushes the next row down.
    expect(drawn).toMatch(/<div class="flow-row"><div class="flow" data-print-element="field" data-element-id="f0" style="margin-left:0mm;width:93mm;min-height:8mm;/);
    expect(drawn.indexOf('data-element-id="f2"')).toBeGreaterThan(drawn.indexOf('data-element-id="f1"'));
    expect(drawn).not.toMatch(/class="el" data-print-element="field"/);
  });

  it('has one registry entry per element kind, each creating an element its schema accepts', () => {
    expect(Object.keys(PRINT_ELEMENT_KINDS).sort()).toEqual([...PRINT_ELEMENT_TYPES].sort());
    for (const type of PRINT_ELEMENT_TYPES) {
      const [width, height] = PRINT_ELEMENT_KINDS[type].size;
      const e = PRINT_ELEMENT_KINDS[type].create({ id: type, x: 1, y: 2, width, height }, [{ code: 'Title', label: '标题', kind: 'field' }, { code: 'Lines', label: '明细', kind: 'subTable' }], '文字');
      expect(PrintLayout.safeParse({ elements: [e] }).success, type).toBe(true);
      expect(e.type).toBe(type);
    }
  });

  it('numbers the pages of each record of its own: a named page and counter a record, its count once known', () => {
    const two = { ...sheet(), documents: [sheet().documents[0]!, { ...sheet().documents[0]!, objectId: 'r2' }] };
    expect(numbersPerRecord(layout, two)).toBe(true);
    expect(numbersPerRecord(layout, sheet())).toBe(false);
    const first = renderPrintHtml(layout, two, {});
    expect(first).toContain(`<a class="mark" href="${RECORD_MARK}1">`);
    expect(first).toContain('@page r1{counter-increment:c1;}');
    expect(first).not.toContain('counter(page)');
    const second = renderPrintHtml(layout, two, { recordPages: [3, 1] });
    expect(second).not.toContain('class="mark"');
    expect(second).toContain('@page r0{counter-increment:c0;@bottom-right{content:"第 " counter(c0) " 页 / 共 " "3" " 页"');
    expect(second).toContain('<section class="doc" data-object-id="r2" style="page:r1">');
  });
});

describe('Code128', () => {
  it('has 107 distinct symbols of 11 modules (the stop 13)', () => {
    expect(CODE128_PATTERNS).toHaveLength(107);
    expect(new Set(CODE128_PATTERNS).size).toBe(107);
    CODE128_PATTERNS.forEach((p, i) => expect([...p].reduce((s, d) => s + Number(d), 0), String(i)).toBe(i === 106 ? 13 : 11));
  });

  it('encodes start B, the data, the weighted check and stop', () => {
    // "AB": A=33, B=34; check = (104 + 33·1 + 34·2) mod 103 = 102.
    expect(code128Values('AB')).toEqual([104, 33, 34, 102, 106]);
    expect(code128Bars('AB').modules).toBe(11 * 4 + 13);
  });

  it('refuses text beyond printable ASCII instead of altering it, and the print says so in its place', () => {
    expect(code128Encodable('NO-1 ~')).toBe(true);
    for (const text of ['编号1', 'café', 'a\tb']) {
      expect(code128Encodable(text)).toBe(false);
      expect(() => code128Values(text)).toThrow(RangeError);
    }
    const layout = PrintLayout.parse({ elements: [{ id: 'b', type: 'barcode', source: { kind: 'link' }, x: 0, y: 0, width: 40, height: 12 }] });
    const print = (code: string) => renderPrintHtml(layout, { ...sheet(), documents: [{ ...sheet().documents[0]!, codes: { b: code } }] });
    expect(print('NO-1')).toMatch(/data-print-element="barcode"[^>]*><div[^>]*><svg/);
    expect(print('编号1')).toContain(BARCODE_REFUSED);
    expect(print('编号1')).not.toContain('<svg');
  });
});
