import type { ClipboardEvent } from 'react';
import { App, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { RuntimeControl } from '../fields/field-types.ts';
import { isEmptyValue, newRowKey, type GridRow } from '../model/form-values.ts';
import { useRuntimeForm } from './form-context.ts';

// Pasting cells copied from a spreadsheet into a sub-table (domain.md §"Counts": at most 200 rows and 20 columns).
// Tab-separated text (Excel's clipboard: quoted cells may hold tabs, line breaks and doubled quotes) becomes new rows;
// its columns fill the sub-table's columns in order, from the column the paste happened in. Text, numbers, dates,
// yes/no and options are read; other controls (people, files, associations…) are left empty.

export const PASTE_MAX_ROWS = 200;
export const PASTE_MAX_COLUMNS = 20;

/** Rows of cells of tab-separated clipboard text; a last empty line (Excel ends with one) is dropped. */
export function parsePastedGrid(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const s = text.replace(/\r\n?/g, '\n');
  while (i < s.length) {
    const ch = s[i]!;
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') (cell += '"'), (i += 2);
      else if (ch === '"') (quoted = false), i++;
      else (cell += ch), i++;
      continue;
    }
    if (ch === '"' && cell === '') (quoted = true), i++;
    else if (ch === '\t') row.push(cell), (cell = ''), i++;
    else if (ch === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else (cell += ch), i++;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

const itemsOf = (control: RuntimeControl) => (Array.isArray(control.options.defaultItems) ? control.options.defaultItems.map(String) : []);
const DATE = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:[ T]+(\d{1,2})[:时](\d{1,2})(?:[:分](\d{1,2})秒?)?分?)?$/;

/** A cell's text as the value of a control: undefined when it cannot be read (the cell stays empty). */
export function cellValue(control: RuntimeControl, text: string): unknown {
  const v = text.trim();
  if (v === '') return null;
  switch (control.type.key) {
    case 'textBox':
    case 'textArea':
      return control.type.key === 'textBox' ? v.replace(/\n/g, ' ') : v;
    case 'number': {
      const n = Number(v.replace(/[,，\s]/g, ''));
      return Number.isFinite(n) ? n : undefined;
    }
    case 'dateTime': {
      const m = DATE.exec(v);
      if (!m) return undefined;
      const d = dayjs(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)));
      return d.isValid() && d.month() === Number(m[2]) - 1 ? d.toISOString() : undefined;
    }
    case 'checkbox':
      if (['是', 'true', 'TRUE', '1', '√', 'Y', 'y'].includes(v)) return true;
      if (['否', 'false', 'FALSE', '0', '×', 'N', 'n'].includes(v)) return false;
      return undefined;
    case 'radioList':
    case 'dropDown': {
      const items = itemsOf(control);
      return items.length === 0 || items.includes(v) ? v : undefined;
    }
    case 'checkboxList': {
      const items = itemsOf(control);
      const chosen = v.split(/[;；,，\n]/).map((x) => x.trim()).filter(Boolean);
      return chosen.every((x) => items.includes(x)) ? chosen : undefined;
    }
    default:
      return undefined;
  }
}

export type PasteResult = { error: 'limit' } | { rows: Record<string, unknown>[]; skipped: number };

/** The pasted grid as rows of the sub-table's columns, from column `start`; over the limits: an error. */
export function pastedRows(text: string, columns: readonly RuntimeControl[], start = 0): PasteResult {
  const grid = parsePastedGrid(text);
  if (grid.length > PASTE_MAX_ROWS || grid.some((r) => r.length > PASTE_MAX_COLUMNS)) return { error: 'limit' };
  let skipped = 0;
  const rows = grid.map((cells) => {
    const row: Record<string, unknown> = {};
    cells.forEach((text, i) => {
      const column = columns[start + i];
      if (!column) return;
      const value = cellValue(column, text);
      if (value === undefined) skipped++;
      else if (value !== null) row[column.code] = value;
    });
    return row;
  });
  return { rows, skipped };
}

/** Whether clipboard text is a block of cells (several cells or lines), not one value typed into one input. */
export const isCellBlock = (text: string) => /\t/.test(text) || text.replace(/\r?\n$/, '').includes('\n');

/**
 * The sub-table's paste handler (undefined when it is not editable): a block of cells becomes new rows, replacing
 * the empty rows at the end. Inside a cell, the paste starts at that cell's column (`data-paste-column`).
 */
export function useGridPaste(control: RuntimeControl, columns: readonly RuntimeControl[], editing: boolean) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const state = useRuntimeForm();
  if (!editing) return undefined;
  return (event: ClipboardEvent<HTMLElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (!text || !isCellBlock(text)) return;
    event.preventDefault();
    const at = (event.target as HTMLElement).closest?.('[data-paste-column]')?.getAttribute('data-paste-column');
    const start = Math.max(0, columns.findIndex((c) => c.code === at));
    const result = pastedRows(text, columns, start);
    if ('error' in result) {
      void message.warning(t('formRuntime.grid.pasteLimit'));
      return;
    }
    const isBlank = (row: GridRow) => columns.every((c) => isEmptyValue(row[c.code]));
    state.setRows(control.code, (current) => {
      let keep = current.length;
      while (keep > 0 && isBlank(current[keep - 1]!) && !current[keep - 1]!.ObjectId) keep--;
      return [...current.slice(0, keep), ...result.rows.map((row) => ({ ...row, __key: newRowKey() }))];
    });
    if (result.skipped) void message.warning(t('formRuntime.grid.pasteSkipped', { count: result.rows.length, skipped: result.skipped }));
    else void message.success(t('formRuntime.grid.pasted', { count: result.rows.length }));
  };
}

/** The line under an editable sub-table that says rows can be pasted. */
export function PasteHint() {
  const { t } = useTranslation();
  return <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('formRuntime.grid.pasteHint')}</Typography.Text>;
}
