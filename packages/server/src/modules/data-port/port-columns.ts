import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { DataField, GridField, RuntimeForm } from '../business-data/runtime-form.ts';
import { visibleFields, visibleGrids } from '../business-data/record.presenter.ts';

// The columns of a form as import and export see them (docs/decisions/0020): the data controls of the main table,
// then each sub-table's columns as `<grid>.<column>` (header `<sub-table name>.<column name>`), and for export the
// system fields a list shows. Computed controls (formula, rollup) and files are exported but never imported.

export interface PortColumn {
  code: string;
  header: string;
  field: DataField | null;
  grid: GridField | null;
  /** A system field (ObjectId, SeqNo, Name, Status, …): exported; ObjectId and SeqNo also match on import. */
  system: string | null;
  importable: boolean;
}

// A face-recognition value is set only by a passing face check (docs/decisions/0123), never from a file.
const NOT_IMPORTED = new Set(['formula', 'rollup', 'attachment', 'photo', 'handSign', 'ocr', 'eSign', 'faceRecognition']);
const SYSTEM_HEADERS: Record<string, string> = {
  SeqNo: '流水号', Name: '数据标题', Status: '数据状态', CreatedBy: '创建人', OwnerId: '拥有者', OwnerDeptId: '所属部门',
  CreatedTime: '创建时间', ModifiedTime: '修改时间', ObjectId: 'ObjectId',
};
/** System fields exported by default, before the controls. */
const DEFAULT_SYSTEM = ['SeqNo', 'Status', 'CreatedBy', 'CreatedTime'];

const nameOf = (options: Record<string, unknown>, code: string): string => String(options.displayName ?? '') || code;

export function portColumns(form: RuntimeForm): PortColumn[] {
  const out: PortColumn[] = [];
  const system = (code: string): PortColumn => ({ code, header: SYSTEM_HEADERS[code] ?? code, field: null, grid: null, system: code, importable: code === 'ObjectId' || code === 'SeqNo' });
  for (const code of Object.keys(SYSTEM_HEADERS)) out.push(system(code));
  // Fields hidden from the caller (docs/decisions/0037) are no columns of theirs: not exported, not imported.
  for (const field of visibleFields(form)) out.push({ code: field.code, header: nameOf(field.options, field.code), field, grid: null, system: null, importable: !NOT_IMPORTED.has(field.type.key) });
  for (const grid of visibleGrids(form)) {
    for (const field of grid.fields) {
      out.push({
        code: `${grid.code}.${field.code}`,
        header: `${nameOf(grid.options, grid.code)}.${nameOf(field.options, field.code)}`,
        field,
        grid,
        system: null,
        importable: !NOT_IMPORTED.has(field.type.key),
      });
    }
  }
  return out;
}

/** The columns an export writes by default: a few system fields, every control, every sub-table column. */
export function defaultExportColumns(form: RuntimeForm): PortColumn[] {
  return portColumns(form).filter((c) => !c.system || DEFAULT_SYSTEM.includes(c.system));
}

/** The columns asked for, in the order asked; 300010 names the unknown ones. */
export function exportColumnsOf(form: RuntimeForm, codes: readonly string[] | undefined): PortColumn[] {
  if (!codes) return defaultExportColumns(form);
  const all = new Map(portColumns(form).map((c) => [c.code.toLowerCase(), c]));
  const unknown = codes.filter((c) => !all.has(c.toLowerCase()));
  if (unknown.length) throw new AppError('DataPortColumnInvalid', { detail: { columns: unknown } });
  return [...new Set(codes.map((c) => c.toLowerCase()))].map((c) => all.get(c)!);
}

/** The template's columns: what an import can write (no system fields). */
export const templateColumns = (form: RuntimeForm): PortColumn[] => portColumns(form).filter((c) => c.importable && !c.system);

export function presentColumn(c: PortColumn): contracts.DataPortColumn {
  return {
    code: c.code,
    displayName: c.header,
    controlType: c.field?.type.key ?? 'system',
    grid: c.grid?.code ?? null,
    importable: c.importable,
    required: c.field?.options.required === true,
  };
}
