/** Owner department (所属部门): the department the record belongs to, read from the OwnerDeptId system column. */
import { unitText } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { ONE_PER_FORM } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '所属部门', 'en-US': 'Owner department' };

export const ownerDepartmentControl = defineControlType({
  key: 'ownerDepartment',
  code: 204,
  group: 'system',
  displayName,
  dataType: 'unit',
  column: { sqlType: 'text', systemField: 'OwnerDeptId' },
  options: dataControlOptions(displayName['zh-CN']),
  value: idSchema,
  displayText: (id, _options, context) => (id ? unitText(id, context) : ''),
  placement: ONE_PER_FORM,
});
