/**
 * A record's formula controls computed from its values: the same function in the form runtime (as people type) and
 * on the server (on every save, whose result is the one stored). Sub-table formula columns are computed per row;
 * main-table formulas may aggregate sub-table columns, and either may use the other's results, so the computation
 * repeats until nothing changes (cycles are refused at design time: findFormulaCycles).
 */
import type { FormulaNode } from './ast.ts';
import { createFormulaContext, evaluateFormula } from './evaluate.ts';
import { parseFormula } from './parser.ts';
import { coerceFormulaResult, evaluateCondition, type FormulaResultOptions } from './result.ts';

interface DefinitionLike {
  type: string;
  code: string;
  options?: unknown;
  controls?: readonly DefinitionLike[];
  panes?: readonly { controls: readonly DefinitionLike[] }[];
}

interface CompiledFormula extends FormulaResultOptions {
  code: string;
  ast: FormulaNode;
}

export interface FormFormulas {
  main: CompiledFormula[];
  grids: { code: string; columns: CompiledFormula[] }[];
}

type Row = Record<string, unknown>;

function compile(control: DefinitionLike): CompiledFormula | null {
  const options = (control.options ?? {}) as { expression?: unknown; bindType?: unknown; decimalPlaces?: unknown };
  if (control.type !== 'formula' || typeof options.expression !== 'string' || !options.expression.trim()) return null;
  const parsed = parseFormula(options.expression);
  if (!parsed.ast) return null;
  const bindType = (['decimal', 'string', 'datetime', 'bool'] as const).find((t) => t === String(options.bindType ?? 'decimal').toLowerCase()) ?? 'decimal';
  return { code: control.code, ast: parsed.ast, bindType, decimalPlaces: typeof options.decimalPlaces === 'number' ? options.decimalPlaces : undefined };
}

/** The formula controls of a published definition: the main table's (through layouts and tabs) and each sub-table's. */
export function formulasOf(controls: readonly DefinitionLike[]): FormFormulas {
  const out: FormFormulas = { main: [], grids: [] };
  const walk = (list: readonly DefinitionLike[]) => {
    for (const control of list) {
      if (control.type === 'gridView') {
        const columns = (control.controls ?? []).map(compile).filter((f): f is CompiledFormula => f !== null);
        if (columns.length) out.grids.push({ code: control.code, columns });
        continue;
      }
      const compiled = compile(control);
      if (compiled) out.main.push(compiled);
      if (control.controls) walk(control.controls);
      control.panes?.forEach((pane) => walk(pane.controls));
    }
  };
  walk(controls);
  return out;
}

export const hasFormulas = (formulas: FormFormulas) => formulas.main.length > 0 || formulas.grids.length > 0;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Values and sub-table rows with every formula computed; the inputs are not changed. */
export function computeFormulas(
  formulas: FormFormulas,
  values: Readonly<Row>,
  children: Readonly<Record<string, readonly Row[]>>,
  options: { now?: number | Date | string; unitName?(id: string): string | undefined } = {},
): { values: Row; children: Record<string, Row[]> } {
  const main: Row = { ...values };
  const rows: Record<string, Row[]> = Object.fromEntries(Object.entries(children).map(([code, list]) => [code, list.map((row) => ({ ...row }))]));
  if (!hasFormulas(formulas)) return { values: main, children: rows };
  const passes = formulas.main.length + formulas.grids.reduce((n, grid) => n + grid.columns.length, 0) + 1;
  for (let pass = 0; pass < passes; pass++) {
    let changed = false;
    const context = createFormulaContext({ ...main, ...rows }, options);
    for (const grid of formulas.grids) {
      for (const row of rows[grid.code] ?? []) {
        for (const column of grid.columns) {
          const result = evaluateFormula(column.ast, { ...context, row: { table: grid.code, values: row } });
          const next = result.ok ? coerceFormulaResult(result.value, column) : null;
          if (!same(row[column.code], next)) (row[column.code] = next), (changed = true);
        }
      }
    }
    for (const formula of formulas.main) {
      const result = evaluateFormula(formula.ast, createFormulaContext({ ...main, ...rows }, options));
      const next = result.ok ? coerceFormulaResult(result.value, formula) : null;
      if (!same(main[formula.code], next)) (main[formula.code] = next), (changed = true);
    }
    if (!changed) break;
  }
  return { values: main, children: rows };
}

/**
 * A hide condition (DisplayRule) over a record's values (sub-tables by their code): true hides the control, and a
 * hidden control is not required. '' or a condition that does not evaluate never hides.
 */
export function hiddenByCondition(condition: unknown, values: Readonly<Row>): boolean {
  if (typeof condition !== 'string' || !condition.trim()) return false;
  const result = evaluateCondition(condition, createFormulaContext(values));
  return result.ok && result.value;
}
