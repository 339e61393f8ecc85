import { describe, expect, it } from 'vitest';
import { CODE128_PATTERNS, code128Bars, code128Values } from './code128.ts';
import { defaultLayoutOf } from './default-layout.ts';
import { renderPrintHtml } from './render.ts';
import { PrintLayout } from './template.ts';
import type { PrintSheet } from './data.ts';

// The print model and renderer (issue 24; docs/decisions/0050): layouts validate, bands keep what is below a grid
// below it, texts are escaped, page numbers become page counters, Code128 symbols are well formed.

const sheet = (rows = 2): PrintSheet => ({
  title: '单',
  labels: { Title: '标题', 'Lines.Item': '物品' },
  gridColumns: { Lines: ['Item'] },
  documents: [{ objectId: 'r1', values: { Title: '<b>甲</b>' }, grids: { Lines: { rows: Array.from({ length: rows }, (_, i) => ({ Item: `行${i}` })) } }, codes: { q: 'http://x/1' }, trace: [] }],
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
    expect(renderPrintHtml(own, sheet(1))).toContain('data-trace="1"');
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
    expect(code128Values('中')).toEqual(code128Values('?'));
  });
});
