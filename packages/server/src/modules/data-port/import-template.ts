import type ExcelJS from 'exceljs';
import { controlChoices } from '@tritium/shared/controls/index';
import { excelJs } from '../../lib/lazy-packages.ts';
import type { DataField, RuntimeForm } from '../business-data/runtime-form.ts';
import { templateColumns } from './port-columns.ts';
import { SAMPLE_MARK, SAMPLE_ROW_NO, sampleRow } from './template-sample.ts';

// GET /v1/dataImport/template (docs/decisions/0020 "Template"): the header of the importable columns (required ones
// red), a marked sample row the importer skips, and a drop-down list on every single-choice and yes/no column.

/** Rows under the header that carry the drop-down lists. */
export const TEMPLATE_LIST_ROWS = 2000;
/** The hidden sheet holding lists too long (or with commas) for an inline list. */
export const LIST_SHEET = '选项';
/** An inline list formula is at most 255 characters in Excel. */
const INLINE_LIST_MAX = 255;
const YES_NO = ['是', '否'];

/** exceljs 4.4 writes a range's data validation (`add('B2:B100', …)`); its typings do not name it. */
type RangeValidations = { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } };

const columnLetter = (n: number): string => (n > 26 ? columnLetter(Math.floor((n - 1) / 26)) : '') + String.fromCharCode(65 + ((n - 1) % 26));

/** The items a cell of the field picks from: a single choice's items, 是/否; null for any other field. */
function listOf(field: DataField | null): readonly string[] | null {
  if (!field) return null;
  if (field.type.dataType === 'bool') return YES_NO;
  if (field.type.dataType !== 'string') return null;
  const choices = controlChoices(field.type, field.options);
  return choices?.length ? choices : null;
}

export async function templateWorkbook(form: RuntimeForm): Promise<{ name: string; body: Buffer }> {
  const workbook = new (await excelJs()).Workbook();
  const sheet = workbook.addWorksheet('导入模板');
  const columns = templateColumns(form);
  sheet.addRow(columns.map((c) => c.header));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow(sampleRow(columns.map((c) => c.field)));
  const sample = sheet.getRow(SAMPLE_ROW_NO);
  sample.font = { italic: true, color: { argb: 'FF8C8C8C' } };
  sample.getCell(1).note = `以“${SAMPLE_MARK}”开头的这一行是示例，导入时跳过。请从下一行起填写数据，也可删除这一行。`;
  let lists: ExcelJS.Worksheet | undefined;
  columns.forEach((c, i) => {
    sheet.getColumn(i + 1).width = Math.max(12, c.header.length * 2 + 2);
    if (c.field?.options.required === true) sheet.getRow(1).getCell(i + 1).font = { bold: true, color: { argb: 'FFCF1322' } };
    const items = listOf(c.field);
    if (!items) return;
    const inline = items.join(',');
    let formula = `"${inline}"`;
    if (inline.length > INLINE_LIST_MAX || items.some((item) => /[,"]/.test(item))) {
      lists ??= workbook.addWorksheet(LIST_SHEET, { state: 'hidden' });
      const letter = columnLetter(lists.actualColumnCount + 1);
      items.forEach((item, row) => (lists!.getCell(`${letter}${row + 1}`).value = item));
      formula = `'${LIST_SHEET}'!$${letter}$1:$${letter}$${items.length}`;
    }
    const letter = columnLetter(i + 1);
    (sheet as unknown as RangeValidations).dataValidations.add(`${letter}${SAMPLE_ROW_NO}:${letter}${SAMPLE_ROW_NO + TEMPLATE_LIST_ROWS}`, {
      type: 'list',
      allowBlank: true,
      formulae: [formula],
      showErrorMessage: true,
      errorTitle: c.header,
      error: '请从下拉列表中选择',
    });
  });
  return { name: `${form.definition.attributes.displayName}导入模板.xlsx`, body: Buffer.from(await workbook.xlsx.writeBuffer()) };
}
