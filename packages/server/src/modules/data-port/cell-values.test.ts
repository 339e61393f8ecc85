import { describe, expect, it } from 'vitest';
import { controlStorage, controlTypeByKey } from '@tritium/shared/controls/index';
import type { DataField } from '../business-data/runtime-form.ts';
import { cellToValue, type Lookups } from './cell-values.ts';

// An imported cell with text the database refuses is that row's error (docs/decisions/0028), never a failed task.

const lookups: Lookups = { users: new Map(), departments: new Map(), userNames: new Map(), departmentNames: new Map() };
function field(key: string, options: Record<string, unknown> = {}): DataField {
  const type = controlTypeByKey(key)!;
  const { column } = controlStorage(type, options);
  return { code: 'F', type, options, sqlType: column && !('childTable' in column) ? column.sqlType : 'text' } as DataField;
}

describe('cells the database cannot store', () => {
  it.each([
    ['a NUL in a text cell', field('textBox'), 'a\u0000b', '不能包含空字符（U+0000）'],
    ['an unpaired surrogate in a text cell', field('textArea'), 'x\udc00', '含有无效的 Unicode 字符（不成对的代理项）'],
    ['a NUL inside the JSON of an address cell', field('areaSelect'), JSON.stringify({ adcode: '110000', detail: 'a\u0000' }), '不能包含空字符（U+0000）'],
  ])('%s is a row error', (_name, f, cell, error) => {
    expect(cellToValue(f, cell, lookups)).toEqual({ error });
  });

  it('ordinary text and emoji pass', () => {
    expect(cellToValue(field('textBox'), '客户😀', lookups)).toEqual({ value: '客户😀' });
  });
});
