import { controlChoices, joinTexts, type ControlDataType } from '@tritium/shared/controls/index';
import type { DataField } from '../business-data/runtime-form.ts';
import type { Cell } from './cell-values.ts';
import type { FileRow } from './file-rows.ts';

// The import template's sample row (docs/decisions/0020 "Template"): the row right under the header, its first cell
// starting with SAMPLE_MARK. An import and its preview skip that row, so a template filled in below the sample
// imports only the person's rows; a sample row overwritten with data loses the mark and is imported as any row.

export const SAMPLE_MARK = '【示例】';
/** The file row the sample takes: the first after the header. */
export const SAMPLE_ROW_NO = 2;

export function isSampleRow(row: FileRow): boolean {
  const first = row.cells[0];
  return row.rowNo === SAMPLE_ROW_NO && typeof first === 'string' && first.trimStart().startsWith(SAMPLE_MARK);
}

/** An example value by data type, written as the importer reads it (cell-values.ts). */
const EXAMPLES: Partial<Record<ControlDataType, Cell>> = {
  string: '示例文本',
  text: '多行文本',
  decimal: 100,
  int: 1,
  datetime: '2024-09-10',
  bool: '是',
  strings: '值一;值二',
  user: '张三',
  users: '张三;李四',
  unit: '销售部',
  units: '销售部;市场部',
  reference: '关联记录的 ObjectId',
  references: '关联记录的 ObjectId;另一条的 ObjectId',
  address: JSON.stringify({ adcode: '440305', adname: '广东省深圳市南山区', detail: '科技园' }),
  location: JSON.stringify({ address: '广东省深圳市南山区科技园', point: { lat: 22.54, lng: 113.95 } }),
};

/** The sample value of a field: its first item (first two for a list of items), else its data type's example. */
export function sampleValue(field: DataField): Cell {
  const choices = controlChoices(field.type, field.options);
  if (choices?.length) return field.type.dataType === 'strings' ? joinTexts(choices.slice(0, 2)) : choices[0]!;
  return EXAMPLES[field.type.dataType] ?? '';
}

/** The sample row's cells: the first marked (as text). */
export function sampleRow(fields: (DataField | null)[]): Cell[] {
  return fields.map((field, i) => {
    const value = field ? sampleValue(field) : '';
    return i === 0 ? `${SAMPLE_MARK}${value ?? ''}` : value;
  });
}
