import { computeFormulas, formulasOf, hasFormulas } from '@tritium/shared/formula/index';
import type { CheckedChildRow, CheckedInput } from './record-input.ts';
import type { RuntimeForm } from './runtime-form.ts';

// Formula controls are the server's to compute (docs/decisions/0012): on every save, from the record as it will be
// (stored values under the ones sent, the sub-table rows as they will be), whatever the client sent for them. The
// results join the checked input, so they are written, and logged, like any value.

const rowValues = ({ ObjectId: _id, ...values }: Record<string, unknown>) => values;

export function applyFormulas(
  form: RuntimeForm,
  checked: CheckedInput,
  stored: { values?: Record<string, unknown>; children: Record<string, Record<string, unknown>[]> },
  now: Date,
  unitName?: (id: string) => string | undefined,
): void {
  const formulas = formulasOf(form.definition.controls);
  if (!hasFormulas(formulas)) return;
  const rowsOf = (code: string): CheckedChildRow[] =>
    checked.children.get(code) ?? (stored.children[code] ?? []).map((row) => ({ objectId: String(row.ObjectId), values: rowValues(row) }));
  const children = Object.fromEntries(form.grids.map((grid) => [grid.code, rowsOf(grid.code).map((row) => row.values)]));
  const computed = computeFormulas(formulas, { ...stored.values, ...checked.values }, children, { now, unitName });
  for (const formula of formulas.main) checked.values[formula.code] = computed.values[formula.code] ?? null;
  for (const grid of formulas.grids) {
    const rows = rowsOf(grid.code);
    const results = computed.children[grid.code] ?? [];
    const changed = rows.some((row, i) => grid.columns.some((column) => JSON.stringify(row.values[column.code] ?? null) !== JSON.stringify(results[i]?.[column.code] ?? null)));
    // A sub-table not sent is written again only when one of its computed columns changes.
    if (!checked.children.has(grid.code) && !changed) continue;
    checked.children.set(
      grid.code,
      rows.map((row, i) => ({ ...row, values: { ...row.values, ...Object.fromEntries(grid.columns.map((column) => [column.code, results[i]?.[column.code] ?? null])) } })),
    );
  }
}
