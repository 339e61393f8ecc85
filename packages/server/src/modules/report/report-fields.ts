import type { contracts } from '@tritium/shared';
import { isSortable, OPERATORS_BY_DATA_TYPE } from '@tritium/shared/query/index';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { assertCan } from '../permission/form-rights.ts';
import { resolveColumn } from '../query/query-fields.ts';
import { viewFields } from '../view/view-fields.ts';

/** The fields a widget on the form may name for the caller: the list's fields and every visible sub-table column. */
export async function reportFields(ctx: NodeContext, schemaCode: string): Promise<contracts.ReportFieldsResult> {
  const form = await getRuntimeFormOrThrow(engineOf(ctx), ctx, schemaCode);
  assertCan(form.rights, 'view');
  const fields = viewFields(form);
  const grids: contracts.ReportFieldsResult['grids'] = [];
  for (const grid of form.grids) {
    const gridTitle = String(grid.options.displayName ?? grid.code);
    const columns = grid.fields.flatMap((f) => {
      const code = `${grid.code}.${f.code}`;
      const column = resolveColumn(form, code);
      if (!column) return [];
      return [{ code, title: `${gridTitle}.${String(f.options.displayName ?? f.code)}`, controlType: f.type.key, dataType: column.dataType, sortable: isSortable(column.dataType), operators: [...OPERATORS_BY_DATA_TYPE[column.dataType]] }];
    });
    if (!columns.length) continue;
    grids.push({ code: grid.code, title: gridTitle });
    fields.push(...columns);
  }
  return { fields, grids };
}
