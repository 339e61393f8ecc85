import { describe, expect, it } from 'vitest';
import { controlStorage, controlTypeByKey } from '@tritium/shared/controls/index';
import type { DataField } from '../business-data/runtime-form.ts';
import { cellToValue, previewText, type Lookups } from './cell-values.ts';
import { isSampleRow, sampleRow, sampleValue } from './template-sample.ts';

// The import template's sample row and the preview's cells (docs/decisions/0020 "Template").

function field(key: string, options: Record<string, unknown> = {}): DataField {
  const type = controlTypeByKey(key)!;
  const parsed = type.options.parse(options) as Record<string, unknown>;
  const { column } = controlStorage(type, parsed);
  return { code: 'F', type, options: parsed, sqlType: column && !('childTable' in column) ? column.sqlType : 'text' } as DataField;
}

const lookups: Lookups = {
  users: new Map([['张三', ['u1']], ['李四', ['u2']]]),
  departments: new Map([['销售部', ['d1']], ['市场部', ['d2']]]),
  userNames: new Map(),
  departmentNames: new Map(),
};

describe('the sample row', () => {
  it('is the marked row right under the header, and only that one', () => {
    expect(isSampleRow({ rowNo: 2, cells: ['【示例】示例文本', 100] })).toBe(true);
    expect(isSampleRow({ rowNo: 2, cells: ['张三', 100] })).toBe(false);
    expect(isSampleRow({ rowNo: 3, cells: ['【示例】示例文本', 100] })).toBe(false);
    expect(isSampleRow({ rowNo: 2, cells: [null, '【示例】'] })).toBe(false);
  });

  it('takes the items of option fields and marks its first cell', () => {
    expect(sampleValue(field('dropDown', { defaultItems: ['高', '中', '低'] }))).toBe('高');
    expect(sampleValue(field('checkboxList', { defaultItems: ['红', '绿', '蓝'] }))).toBe('红;绿');
    expect(sampleRow([field('number'), null, field('checkbox')])).toEqual(['【示例】100', '', '是']);
  });

  it.each(['textBox', 'textArea', 'number', 'dateTime', 'radioList', 'checkboxList', 'dropDown', 'checkbox', 'areaSelect', 'map', 'user', 'multiUser', 'department', 'multiDepartment'])(
    'holds a value the importer reads for %s',
    (key) => {
      const f = field(key);
      const converted = cellToValue(f, sampleValue(f), lookups);
      expect(converted).toHaveProperty('value');
      expect((converted as { value: unknown }).value).not.toBeNull();
    },
  );
});

describe('preview cells', () => {
  it('shows date cells as a day, with the time of day when there is one', () => {
    expect(previewText(new Date(Date.UTC(2024, 8, 10)))).toBe('2024-09-10');
    expect(previewText(new Date(Date.UTC(2024, 8, 10, 14, 30)))).toBe('2024-09-10 14:30');
    expect(previewText(new Date(Date.UTC(2024, 8, 10, 14, 30, 15)))).toBe('2024-09-10 14:30:15');
    expect(previewText(new Date(Number.NaN))).toBe('');
    expect(previewText(' 文本 ')).toBe('文本');
    expect(previewText(7)).toBe('7');
  });
});
