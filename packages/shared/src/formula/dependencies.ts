/** What a formula reads: the dependency graph of a form's computed controls, its order, and its cycles (the designer refuses them). */
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

/** Functions whose result changes without any field changing: a formula calling one is evaluated on every change. */
const VOLATILE_FUNCTIONS = new Set(['NOW', 'TODAY', 'RAND', 'NEWGUID']);

/** One computed control of a form: what it reads (keys as in the graph) and whether it calls a volatile function. */
export interface FormulaGraphNode {
  /** `Code`, or `Table.Code` for a sub-table column. */
  code: string;
  kind: 'formula' | 'rollup';
  /** The sub-table it is a column of. */
  table?: string;
  /** A rollup's source: a sub-table of the form, or the association field of another form. */
  source?: string;
  /** Keys (lower case) of what it reads: a main-table field `code`, a sub-table column `table.code`. */
  reads: string[];
  volatile: boolean;
}

/**
 * The dependency graph of a form's computed values, keyed by lower-case code (`Table.Code` for sub-table columns):
 * formula controls read the fields of their expression (inside a sub-table a bare `{Code}` is a main-table field,
 * `{T.Code}` a column of T either way); rollups read their source column and, over a sub-table, what their filter reads. The designer
 * refuses its cycles (findFormulaCycles); the form runtime follows it to evaluate only what an edit reaches.
 */
export function formulaGraph(controls: readonly FormulaControlLike[]): Map<string, FormulaGraphNode> {
  const graph = new Map<string, FormulaGraphNode>();
  const visit = (list: readonly FormulaControlLike[], table: string | undefined) => {
    for (const control of list) {
      const code = table ? `${table}.${control.code}` : control.code;
      const options = (control.options ?? {}) as { expression?: unknown; sourceCode?: unknown; sourceField?: unknown; filter?: unknown; sourceSchemaCode?: unknown };
      if (control.type === 'formula' && typeof options.expression === 'string') {
        const ast = parseFormula(options.expression).ast;
        const volatile = ast ? [...walkFormula(ast)].some((node) => node.type === 'call' && VOLATILE_FUNCTIONS.has(node.name)) : false;
        graph.set(key(code), { code, kind: 'formula', table, reads: ast ? dependenciesOf(ast).map(key) : [], volatile });
      }
      if (control.type === 'rollup' && typeof options.sourceCode === 'string' && options.sourceCode) {
        const reads = typeof options.sourceField === 'string' && options.sourceField ? [key(`${options.sourceCode}.${options.sourceField}`)] : [];
        // The filter of a rollup over another form's records reads that form's fields, not this one's.
        if (typeof options.filter === 'string' && options.filter.trim() && !options.sourceSchemaCode) reads.push(...dependenciesOf(options.filter).map(key));
        graph.set(key(code), { code, kind: 'rollup', table, source: options.sourceCode, reads: [...new Set(reads)], volatile: false });
      }
      if (control.type === 'gridView') visit(control.controls ?? [], control.code);
      else if (control.controls) visit(control.controls, table);
      control.panes?.forEach((pane) => visit(pane.controls, table));
    }
  };
  visit(controls, undefined);
  return graph;
}

const key = (code: string) => code.toLowerCase();

/**
 * The graph's nodes in an order where each comes after every computed node it reads, or null when they form a cycle.
 * Ties keep the definition's order.
 */
export function formulaOrder(graph: ReadonlyMap<string, FormulaGraphNode>): string[] | null {
  const order: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string): boolean => {
    if (state.get(node) === 'done') return true;
    if (state.get(node) === 'open') return false;
    state.set(node, 'open');
    for (const next of graph.get(node)!.reads) if (graph.has(next) && !visit(next)) return false;
    state.set(node, 'done');
    order.push(node);
    return true;
  };
  for (const node of graph.keys()) if (!visit(node)) return null;
  return order;
}

/**
 * Cycles among a form's computed values: formula controls (their expression) and rollups (their source field and
 * filter). Each cycle lists control codes in order, sub-table controls as `Table.Code`; A → B → A comes back as ['A', 'B'].
 */
export function findFormulaCycles(definition: { controls: readonly FormulaControlLike[] }): string[][] {
  const graph = formulaGraph(definition.controls);
  const edges = new Map([...graph].map(([node, { reads }]) => [node, reads]));
  const names = new Map([...graph].map(([node, { code }]) => [node, code]));
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
