import { describe, expect, it } from 'vitest';
import { MAX_SELECT_OPTIONS, TEXT_AREA_ROWS } from '../constants/limits.ts';
import { SEQ_NO_STRUCTURE_PARTS } from '../constants/formats.ts';
import { CONTROL_TYPES, controlTypeByKey } from './registry.ts';

const items = (n: number) => Array.from({ length: n }, (_, i) => `选项${i + 1}`);

describe('new controls', () => {
  it.each(CONTROL_TYPES.map((type) => [type.key, type] as const))('%s parses from {} with its type name', (_key, type) => {
    const options = type.options.parse({}) as { displayName: string; visible: boolean; required?: boolean };
    expect(options.displayName).toBe(type.displayName['zh-CN']);
    expect(options.visible).toBe(true);
    if (type.column) expect(options.required).toBe(false);
  });

  it('keeps a name given by the designer and refuses an empty one', () => {
    const text = controlTypeByKey('textBox');
    expect(text.options.parse({ displayName: ' 客户名称 ' }).displayName).toBe('客户名称');
    expect(text.options.safeParse({ displayName: '  ' }).success).toBe(false);
  });

  it('refuses a tip longer than the tooltip limit', () => {
    expect(controlTypeByKey('number').options.safeParse({ description: 'x'.repeat(201) }).success).toBe(false);
  });
});

describe('number options', () => {
  const number = controlTypeByKey('number');

  it('default to 0 decimals, or 2 for percentage and bar display', () => {
    expect(number.options.parse({}).decimalPlaces).toBe(0);
    expect(number.options.parse({ showMode: 'percentage' }).decimalPlaces).toBe(2);
    expect(number.options.parse({ showMode: 'bar' }).decimalPlaces).toBe(2);
    expect(number.options.parse({ showMode: 'bar', decimalPlaces: 4 }).decimalPlaces).toBe(4);
  });

  it('refuse a reversed range and impossible decimals', () => {
    expect(number.options.safeParse({ rangeRule: { min: 10, max: 1 } }).success).toBe(false);
    expect(number.options.safeParse({ rangeRule: { min: 1 } }).success).toBe(true);
    expect(number.options.safeParse({ decimalPlaces: -1 }).success).toBe(false);
    expect(number.options.safeParse({ decimalPlaces: 17 }).success).toBe(false);
  });

  it('apply the same defaults to formula and rollup', () => {
    expect(controlTypeByKey('formula').options.parse({ showMode: 'percentage' }).decimalPlaces).toBe(2);
    expect(controlTypeByKey('rollup').options.parse({}).decimalPlaces).toBe(0);
    expect(controlTypeByKey('rollup').options.parse({}).rollupType).toBe('sum');
  });

  it('read bindType in any case', () => {
    expect(controlTypeByKey('formula').options.parse({ bindType: 'STRING' }).bindType).toBe('string');
    expect(controlTypeByKey('formula').options.safeParse({ bindType: 'money' }).success).toBe(false);
  });
});

describe('date options', () => {
  const date = controlTypeByKey('dateTime');

  it('fall back to year-month-day-hour-minute for a missing or unknown display format', () => {
    expect(date.options.parse({}).displayFormat).toBe('yyyy-mm-dd hh:mm');
    expect(date.options.parse({ displayFormat: 'dd/mm/yyyy' }).displayFormat).toBe('yyyy-mm-dd hh:mm');
    expect(date.options.parse({ displayFormat: 'YYYY-MM' }).displayFormat).toBe('yyyy-mm');
  });

  it('take now or a moment as default value', () => {
    expect(date.options.parse({ defaultValue: 'now' }).defaultValue).toBe('now');
    expect(date.options.safeParse({ defaultValue: 'tomorrow' }).success).toBe(false);
    expect(date.options.safeParse({ rangeRule: { min: '2026-02-01T00:00:00Z', max: '2026-01-01T00:00:00Z' } }).success).toBe(false);
  });
});

describe('select options', () => {
  const lists = ['radioList', 'checkboxList', 'dropDown'] as const;

  it.each(lists)(`%s allows at most ${MAX_SELECT_OPTIONS} items`, (key) => {
    const type = controlTypeByKey(key);
    expect(type.options.safeParse({ defaultItems: items(MAX_SELECT_OPTIONS) }).success).toBe(true);
    const over = type.options.safeParse({ defaultItems: items(MAX_SELECT_OPTIONS + 1) });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0].path).toEqual(['defaultItems']);
    expect(type.limits?.maxOptions).toBe(MAX_SELECT_OPTIONS);
  });

  it('start with three items and no default choice', () => {
    expect(controlTypeByKey('radioList').options.parse({})).toMatchObject({
      defaultItems: ['选项1', '选项2', '选项3'],
      defaultValue: null,
    });
    expect(controlTypeByKey('checkboxList').options.parse({}).defaultValue).toEqual([]);
  });

  it('refuse empty, repeated and ;-holding items', () => {
    const radio = controlTypeByKey('radioList');
    expect(radio.options.safeParse({ defaultItems: [] }).success).toBe(false);
    expect(radio.options.safeParse({ defaultItems: ['甲', '甲'] }).success).toBe(false);
    expect(radio.options.safeParse({ defaultItems: ['甲;乙'] }).success).toBe(false);
  });

  it('require the default choice and coloured items to be among the items', () => {
    const radio = controlTypeByKey('radioList');
    expect(radio.options.safeParse({ defaultItems: ['甲', '乙'], defaultValue: '乙' }).success).toBe(true);
    expect(radio.options.safeParse({ defaultItems: ['甲', '乙'], defaultValue: '丙' }).success).toBe(false);
    const checkbox = controlTypeByKey('checkboxList');
    expect(checkbox.options.safeParse({ defaultItems: ['甲', '乙'], defaultValue: ['甲', '丙'] }).success).toBe(false);
    expect(radio.options.safeParse({ defaultItems: ['甲'], itemColors: { 甲: 3 } }).success).toBe(true);
    expect(radio.options.safeParse({ defaultItems: ['甲'], itemColors: { 乙: 3 } }).success).toBe(false);
    expect(radio.options.safeParse({ defaultItems: ['甲'], itemColors: { 甲: 20 } }).success).toBe(false);
  });
});

describe('other attributes', () => {
  it('text area rows default to 3 and stop at 999', () => {
    const area = controlTypeByKey('textArea');
    expect(area.options.parse({}).rows).toBe(TEXT_AREA_ROWS.default);
    expect(area.options.safeParse({ rows: 1000 }).success).toBe(false);
  });

  it('uploads default to the spec sizes and stop at the maximum', () => {
    expect(controlTypeByKey('attachment').options.parse({}).maxUploadSize).toBe(10);
    expect(controlTypeByKey('photo').options.parse({}).maxUploadSize).toBe(20);
    expect(controlTypeByKey('attachment').options.safeParse({ maxUploadSize: 501 }).success).toBe(false);
    expect(controlTypeByKey('handSign').options.safeParse({ maxUploadSize: 11 }).success).toBe(false);
  });

  it('area mode defaults to province-city-town', () => {
    expect(controlTypeByKey('areaSelect').options.parse({}).areaMode).toBe('P-C-T');
    expect(controlTypeByKey('areaSelect').options.safeParse({ areaMode: 'C' }).success).toBe(false);
  });

  it('sequence numbers start as year and 8 digits, and need exactly one counter', () => {
    const seq = controlTypeByKey('seqNo');
    expect(seq.options.parse({}).seqNoStructure).toEqual([
      { type: 'createdTime', format: 'yyyy' },
      { type: 'increment', digits: 8 },
    ]);
    expect(seq.options.safeParse({ seqNoStructure: [{ type: 'fixedValue', value: 'HT' }] }).success).toBe(false);
    const every = [
      { type: 'createdTime' },
      { type: 'increment' },
      { type: 'fixedValue', value: 'HT' },
      { type: 'formControl', code: 'region' },
    ];
    expect(every.map((part) => part.type)).toEqual([...SEQ_NO_STRUCTURE_PARTS]);
    expect(seq.options.safeParse({ seqNoStructure: every }).success).toBe(true);
  });

  it('map range is one of the spec distances', () => {
    expect(controlTypeByKey('map').options.parse({ range: 500 }).range).toBe(500);
    expect(controlTypeByKey('map').options.safeParse({ range: 300 }).success).toBe(false);
  });

  it('layout has two to four columns', () => {
    expect(controlTypeByKey('layout').options.parse({}).columns).toBe(2);
    expect(controlTypeByKey('layout').options.safeParse({ columns: 5 }).success).toBe(false);
  });
});
