import type { contracts } from '@tritium/shared';
import { ViewScope, RowHeight } from '@tritium/shared/constants/views';
import { OPERATORS_BY_DATA_TYPE, isSortable } from '@tritium/shared/query/index';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { mainColumn } from '../query/query-fields.ts';

// The fields a list view may show (docs/decisions/0017): the form's main-table data fields in designer order, then
// the system fields. Each carries its data type, whether it sorts (domain.md §5) and the operators valid for it.

const SYSTEM_TITLES: Record<string, string> = {
  Name: '数据标题',
  SeqNo: '单据号',
  Status: '数据状态',
  CreatedBy: '创建人',
  OwnerId: '拥有者',
  OwnerDeptId: '所属部门',
  CreatedTime: '创建时间',
  ModifiedBy: '修改人',
  ModifiedTime: '修改时间',
};

/** Control types a batch update may not set: computed or system-made values and files. */
export const NOT_BATCH_EDITABLE = new Set(['formula', 'seqNo', 'attachment', 'photo', 'handSign', 'eSign', 'faceRecognition', 'rollup', 'associatedProperty']);

export function viewFields(form: RuntimeForm): contracts.ViewField[] {
  const out: contracts.ViewField[] = [];
  for (const f of form.fields) {
    // A field hidden from the caller is no column, filter or sort of theirs (docs/decisions/0037).
    const column = mainColumn(form, f.code);
    if (!column) continue;
    const items = Array.isArray(f.options.defaultItems) ? (f.options.defaultItems as unknown[]).map(String) : undefined;
    out.push({
      code: f.code,
      title: String(f.options.displayName ?? f.code),
      controlType: f.type.key,
      dataType: column.dataType,
      sortable: isSortable(column.dataType),
      operators: [...OPERATORS_BY_DATA_TYPE[column.dataType]],
      ...(items ? { items } : {}),
      ...(typeof f.options.schemaCode === 'string' && f.options.schemaCode ? { targetSchemaCode: f.options.schemaCode } : {}),
    });
  }
  for (const [code, title] of Object.entries(SYSTEM_TITLES)) {
    const column = mainColumn(form, code);
    if (!column || out.some((f) => f.code === code)) continue;
    out.push({ code, title, controlType: 'system', dataType: column.dataType, sortable: isSortable(column.dataType), operators: [...OPERATORS_BY_DATA_TYPE[column.dataType]] });
  }
  return out;
}

/** The columns of a view nobody designed yet: the title, the first data fields (up to 8), status and created time. */
export function defaultColumns(form: RuntimeForm): contracts.ViewColumn[] {
  const data = form.fields.filter((f) => !['attachment', 'photo', 'handSign', 'eSign', 'faceRecognition'].includes(f.type.key)).slice(0, 8);
  return [{ field: 'Name', width: 200, fixed: 'left' }, ...data.map((f) => ({ field: f.code })), { field: 'Status' }, { field: 'CreatedTime', width: 170 }];
}

/** The view every published form has until its views are designed. */
export function defaultView(form: RuntimeForm): contracts.ViewSetting {
  const fields = viewFields(form);
  const text = fields.filter((f) => f.dataType === 'string' && f.controlType !== 'system').map((f) => f.code);
  return {
    code: 'DefaultView',
    title: '全部数据',
    mode: 0,
    scope: ViewScope.ViewAll,
    rowHeight: RowHeight.Common,
    columns: defaultColumns(form),
    sort: [],
    filters: ['Name', ...fields.filter((f) => f.controlType !== 'system' && f.operators.length > 2).map((f) => f.code).slice(0, 6), 'Status', 'CreatedTime'],
    quickSearch: ['Name', ...text.slice(0, 2)],
    stats: [],
    actions: [
      { code: 'Create', title: '新增', type: 'Create' },
      { code: 'BatchEdit', title: '批量修改', type: 'BatchEdit' },
      { code: 'Delete', title: '删除', type: 'Delete' },
    ],
    styleRules: [],
    pageSize: 50,
  };
}

/** A field may carry a hierarchy: an association query of the main table pointing to the form itself. */
export function isHierarchyParent(form: RuntimeForm, code: string): boolean {
  const field = form.fields.find((f) => f.code === code);
  return !!field && field.type.key === 'associationQuery' && String(field.options.schemaCode ?? '').toLowerCase() === form.node.code.toLowerCase();
}
