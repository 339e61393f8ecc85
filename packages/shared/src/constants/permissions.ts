// Form permissions (issue 19; docs/decisions/0037): what a permission group grants on one form. domain.md §6 names the
// data scopes; the actions and field rights are the product's permission editor's (h3yun-facts: "数据权限",
// field permission READ / WRITE / NONE).

/** What a group may do with a form's records. */
export const FORM_ACTIONS = ['view', 'create', 'edit', 'delete', 'import', 'export', 'print', 'batchUpdate', 'changeOwner'] as const;
export type FormAction = (typeof FORM_ACTIONS)[number];

/** A field's right in a group: absent means editable. Sub-table columns are named `Grid.Column`. */
export const FIELD_RIGHTS = ['hidden', 'readonly', 'editable'] as const;
export type FieldRight = (typeof FIELD_RIGHTS)[number];

/** At most this many permission groups per form. */
export const MAX_PERMISSION_GROUPS = 50;

/** The actions as the permission editor and refusals name them. */
export const FORM_ACTION_LABELS: Readonly<Record<FormAction, { zh: string; en: string }>> = {
  view: { zh: '查看', en: 'View' },
  create: { zh: '新增', en: 'Create' },
  edit: { zh: '编辑', en: 'Edit' },
  delete: { zh: '删除', en: 'Delete' },
  import: { zh: '导入', en: 'Import' },
  export: { zh: '导出', en: 'Export' },
  print: { zh: '打印', en: 'Print' },
  batchUpdate: { zh: '批量修改', en: 'Batch update' },
  changeOwner: { zh: '修改拥有者', en: 'Change owner' },
};
