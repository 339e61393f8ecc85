/** What a formula reads, and cycles between a form's computed controls (the designer refuses them). */
import { walkFormula, type FormulaNode } from './ast.ts';
import { parseFormula } from './parser.ts';

/** Field codes a formula references, as written (`Qty`, `Lines.Qty`), each once, in source order; [] when it does not parse. */
export function dependenciesOf(formula: FormulaNode | string): string[] {
  const ast = typeof formula === 'string' ? parseFormula(formula).ast : formula;
  if (!ast) return [];
  const codes: string[] = [];
  for (const node of walkFormula(ast)) if (node.type === 'field' && !codes.includes(node.code)) codes.push(node.code);
  return codes;
}

/** The part of a saved control the check reads (controls/control-definition.ts). */
export interface FormulaControlLike {
  type: string;
  code: string;
  options?: unknown;
  controls?: readonly FormulaControlLike[];
  panes?: readonly { controls: readonly FormulaControlLike[] }[];
}

/**
 * Cycles among a form's computed values: formula controls (their expression) and rollups (their source field).
 * Each cycle lists control codes in order, sub-table controls as `Table.Code`; A → B → A comes back as ['A', 'B'].
 */
export function findFormulaCycles(definition: { controls: readonly FormulaControlLike[] }): string[][] {
  const edges = new Map<string, string[]>();
  const names = new Map<string, string>();
  const key = (code: string) => code.toLowerCase();
  const visit = (controls: readonly FormulaControlLike[], table: string | undefined) => {
    for (const control of controls) {
      const code = table ? `${table}.${control.code}` : control.code;
      names.set(key(code), code);
      const options = (control.options ?? {}) as { expression?: unknown; sourceCode?: unknown; sourceField?: unknown };
      if (control.type === 'formula' && typeof options.expression === 'string') {
        // Inside a sub-table a bare {Code} is a main-table field; {T.Code} is a column of T either way.
        edges.set(key(code), dependenciesOf(options.expression).map(key));
      }
      if (control.type === 'rollup' && typeof options.sourceCode === 'string' && typeof options.sourceField === 'string') {
        edges.set(key(code), [key(`${options.sourceCode}.${options.sourceField}`)]);
      }
      if (control.type === 'gridView') visit(control.controls ?? [], control.code);
      else if (control.controls) visit(control.controls, table);
      control.panes?.forEach((pane) => visit(pane.controls, table));
    }
  };
  visit(definition.controls, undefined);

  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const dfs = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next));
        // The same cycle found from another member is reported once.
        const id = [...cycle].sort().join('|');
        if (!seen.has(id)) {
          seen.add(id);
          cycles.push(cycle.map((member) => names.get(member) ?? member));
        }
      } else if (!state.has(next)) dfs(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) dfs(node);
  return cycles;
}
