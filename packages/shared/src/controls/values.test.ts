import { describe, expect, it } from 'vitest';
import { MAX_BATCH_SCAN_ITEMS, MAX_OCR_FILES, TEXT_BOX_MAX_LENGTH } from '../constants/limits.ts';
import { controlTypeByKey } from './registry.ts';
import type { ControlTypeKey } from './types.ts';

const file = { id: 'f1', name: '合同.pdf', size: 1024, contentType: 'application/pdf' };
const image = { id: 'f2', name: '现场.jpg', size: 2048, contentType: 'image/jpeg' };

function accepts(key: ControlTypeKey, value: unknown): boolean {
  const schema = controlTypeByKey(key).value;
  if (!schema) throw new Error(`${key} holds no value`);
  return schema.safeParse(value).success;
}

describe('stored values', () => {
  it('text box: up to 200 characters', () => {
    expect(accepts('textBox', 'x'.repeat(TEXT_BOX_MAX_LENGTH))).toBe(true);
    expect(accepts('textBox', 'x'.repeat(TEXT_BOX_MAX_LENGTH + 1))).toBe(false);
    expect(accepts('textArea', 'x'.repeat(2000))).toBe(true);
    expect(accepts('textArea', 'x'.repeat(2001))).toBe(false);
  });

  it('number: finite numbers only', () => {
    expect(accepts('number', 12.5)).toBe(true);
    expect(accepts('number', -3)).toBe(true);
    expect(accepts('number', '12.5')).toBe(false);
    expect(accepts('number', Number.NaN)).toBe(false);
    expect(accepts('number', Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('date-time: ISO-8601 moments with an offset', () => {
    expect(accepts('dateTime', '2026-03-01T08:30:00+08:00')).toBe(true);
    expect(accepts('dateTime', '2026-03-01T00:30:00.000Z')).toBe(true);
    expect(accepts('dateTime', '2026-03-01')).toBe(false);
    expect(accepts('dateTime', '2026-03-01T08:30:00')).toBe(false);
    expect(accepts('dateTime', '2026-02-30T08:30:00Z')).toBe(false);
    expect(accepts('createdTime', 1767225600000)).toBe(false);
  });

  it('checkbox list: distinct item texts', () => {
    expect(accepts('checkboxList', ['甲', '乙'])).toBe(true);
    expect(accepts('checkboxList', [])).toBe(true);
    expect(accepts('checkboxList', ['甲', '甲'])).toBe(false);
    expect(accepts('checkboxList', '甲;乙')).toBe(false);
    expect(accepts('checkboxList', ['甲;乙'])).toBe(false);
  });

  it('user and department: ids, one or several, each once', () => {
    expect(accepts('user', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(accepts('user', '')).toBe(false);
    expect(accepts('user', ['u1'])).toBe(false);
    expect(accepts('multiUser', ['u1', 'u2'])).toBe(true);
    expect(accepts('multiUser', ['u1', 'u1'])).toBe(false);
    expect(accepts('multiDepartment', 'd1')).toBe(false);
    expect(accepts('owner', 'u1')).toBe(true);
  });

  it('address: a 6-digit region code, its name and a street', () => {
    expect(accepts('areaSelect', { adcode: '440305', adname: '广东省 深圳市 南山区', detail: '科技园' })).toBe(true);
    expect(accepts('areaSelect', { adcode: '440305', adname: '广东省 深圳市 南山区' })).toBe(true);
    expect(accepts('areaSelect', { adcode: '4403', adname: '广东省', detail: '' })).toBe(false);
    expect(accepts('areaSelect', '广东省 深圳市')).toBe(false);
  });

  it('location: an address and coordinates on Earth', () => {
    expect(accepts('map', { address: '深圳湾', point: { lat: 22.5, lng: 113.9 } })).toBe(true);
    expect(accepts('map', { address: '深圳湾', point: { lat: 95, lng: 113.9 } })).toBe(false);
  });

  it('attachment and photo: file references; photos must be images', () => {
    expect(accepts('attachment', [file, image])).toBe(true);
    expect(accepts('attachment', [{ id: 'f1', name: 'a.pdf' }])).toBe(false);
    expect(accepts('photo', [image])).toBe(true);
    expect(accepts('photo', [file])).toBe(false);
    expect(accepts('handSign', image)).toBe(true);
  });

  it(`OCR keeps at most ${MAX_OCR_FILES} files and batch scan at most ${MAX_BATCH_SCAN_ITEMS} codes`, () => {
    expect(accepts('ocr', Array.from({ length: MAX_OCR_FILES }, () => image))).toBe(true);
    expect(accepts('ocr', Array.from({ length: MAX_OCR_FILES + 1 }, () => image))).toBe(false);
    expect(accepts('batchScan', Array.from({ length: MAX_BATCH_SCAN_ITEMS }, (_, i) => `SN${i}`))).toBe(true);
    expect(accepts('batchScan', Array.from({ length: MAX_BATCH_SCAN_ITEMS + 1 }, (_, i) => `SN${i}`))).toBe(false);
  });

  it('grid view: rows of child values, with an ObjectId once saved', () => {
    expect(accepts('gridView', [{ amount: 3, item: '螺丝' }, { ObjectId: 'r2', amount: 1 }])).toBe(true);
    expect(accepts('gridView', [])).toBe(true);
    expect(accepts('gridView', [{ ObjectId: '' }])).toBe(false);
    expect(accepts('gridView', [['螺丝', 3]])).toBe(false);
    expect(accepts('gridView', { amount: 3 })).toBe(false);
  });

  it('status: one of the four data statuses', () => {
    expect(accepts('status', 1)).toBe(true);
    expect(accepts('status', 4)).toBe(false);
    expect(accepts('status', 'Effective')).toBe(false);
  });

  it('e-sign: a flow id and one of the flow states', () => {
    expect(accepts('eSign', { flowId: 'flow-1', state: 'Running' })).toBe(true);
    expect(accepts('eSign', { flowId: 'flow-1', state: 'Signed' })).toBe(false);
  });

  it('controls without data accept no value at all', () => {
    for (const key of ['label', 'button', 'groupTitle', 'layout', 'description', 'tab', 'associatedProperty'] as const) {
      expect(controlTypeByKey(key).value, key).toBeNull();
    }
  });
});
