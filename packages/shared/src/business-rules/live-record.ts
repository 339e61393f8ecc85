/**
 * A record's formulas and sub-table rollups kept computed as people type (docs/decisions/0034). Each call is given
 * the record's values as they are now; it compares them with the previous call's, and evaluates only the computed
 * controls the changes reach through the form's dependency graph (formulaGraph, the one the designer's cycle check
 * reads), in the graph's order, on the sub-table rows they reach. A sub-table rollup keeps each row's contribution and
 * filters again only the rows that changed. The results are the whole-record evaluation's (computeWithRollups);
 * formulas calling NOW, TODAY, RAND or NEWGUID are evaluated on every call, as the whole-record evaluation does.
 */
import { formulaGraph, formulaOrder, type FormulaControlLike } from '../formula/dependencies.ts';
import { formulasOf, type FormFormulas } from '../formula/compute.ts';
import { evaluateFormula, type FormulaContext } from '../formula/evaluate.ts';
import { coerceFormulaResult, evaluateCondition } from '../formula/result.ts';
import { fromFieldValue, type FormulaValue } from '../formula/values.ts';
import { aggregateValues, computeWithRollups, rollupsOf, type RollupSpec } from './rollup.ts';

type Row = Record<string, unknown>;
type Children = Readonly<Record<string, readonly Row[]>>;
export interface RecordValues {
  values: Row;
  children: Record<string, Row[]>;
}

type Formula = FormFormulas['main'][number];
interface Node {
  code: string;
  /** main: a main-table formula; column: a formula column of `table`; rollup: a sub-table rollup over `table`. */
  kind: 'main' | 'column' | 'rollup';
  table: string;
  formula?: Formula;
  rollup?: RollupSpec;
  volatile: boolean;
  /** Main-table fields read (lower case; a bare sub-table code stands for any change in it). */
  main: string[];
  /** Columns of `table` read in the same row (a rollup: of each source row). */
  sameRow: string[];
  /** Whole columns of sub-tables read, [table, column] (lower case). */
  columns: [string, string][];
}

const lower = (code: string) => code.toLowerCase();
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** A rollup's entry for a row its filter leaves out. */
const LEFT_OUT = Symbol('left out');
type Entry = FormulaValue | typeof LEFT_OUT;

/** What changed since the previous call, filled in as computed values change too. */
class Changes {
  readonly main = new Set<string>();
  /** table → column → rows (lower case codes). */
  readonly cells = new Map<string, Map<string, Set<number>>>();
  /** Sub-tables whose rows were added, removed or replaced: every cell counts as changed. */
  readonly tables = new Set<string>();
  constructor(readonly all: boolean) {}

  cell(table: string, column: string, row: number) {
    const columns = this.cells.get(table) ?? this.cells.set(table, new Map()).get(table)!;
    (columns.get(column) ?? columns.set(column, new Set()).get(column)!).add(row);
  }
  column(table: string, column: string): boolean {
    return this.tables.has(table) || !!this.cells.get(table)?.get(column)?.size;
  }
  /** Rows where one of the columns changed, or 'all'. */
  rows(table: string, columns: readonly string[]): Set<number> | 'all' {
    if (this.all || this.tables.has(table)) return 'all';
    const out = new Set<number>();
    for (const column of columns) for (const row of this.cells.get(table)?.get(column) ?? []) out.add(row);
    return out;
  }
  /** Whether what a node reads outside its own rows changed (so every row, or the main-table value, is evaluated). */
  reaches(node: Node): boolean {
    return this.all || node.volatile || node.main.some((code) => this.main.has(code)) || node.columns.some(([t, c]) => this.column(t, c));
  }
}

function plan(controls: readonly FormulaControlLike[], formulas: FormFormulas, rollups: readonly RollupSpec[]): Node[] | null {
  const graph = formulaGraph(controls);
  const order = formulaOrder(graph);
  if (!order) return null;
  const mains = new Map(formulas.main.map((f) => [lower(f.code), f]));
  const columns = new Map(formulas.grids.flatMap((grid) => grid.columns.map((f) => [lower(`${grid.code}.${f.code}`), { grid: grid.code, f }] as const)));
  const own = new Map(rollups.filter((r) => !r.sourceSchemaCode).map((r) => [lower(r.code), r]));
  const nodes: Node[] = [];
  for (const key of order) {
    const { reads, volatile } = graph.get(key)!;
    const column = columns.get(key);
    const node: Node | null = mains.has(key)
      ? { code: mains.get(key)!.code, kind: 'main', table: '', formula: mains.get(key), volatile, main: [], sameRow: [], columns: [] }
      : column
        ? { code: column.f.code, kind: 'column', table: column.grid, formula: column.f, volatile, main: [], sameRow: [], columns: [] }
        : own.has(key)
          ? { code: own.get(key)!.code, kind: 'rollup', table: own.get(key)!.sourceCode, rollup: own.get(key), volatile, main: [], sameRow: [], columns: [] }
          : null;
    // A formula that does not parse, or a rollup over another form, keeps the value it has.
    if (!node) continue;
    for (const read of reads) {
      const dot = read.indexOf('.');
      if (dot < 0) node.main.push(read);
      else if (node.kind !== 'main' && read.slice(0, dot) === lower(node.table)) node.sameRow.push(read.slice(dot + 1));
      else node.columns.push([read.slice(0, dot), read.slice(dot + 1)]);
    }
    nodes.push(node);
  }
  return nodes;
}

/**
 * One open record's computed values, evaluated again only where an edit reaches. `evaluate` may be given any values
 * (an edit, an answer of the server, a reload): what differs from the previous call is what is evaluated.
 */
export class LiveRecord {
  private readonly formulas: FormFormulas;
  private readonly rollups: RollupSpec[];
  private readonly nodes: Node[] | null;
  private readonly computed: Set<string>;
  private last: { values: Readonly<Row>; children: Children; output: RecordValues } | null = null;
  private readonly entries = new Map<string, Entry[]>();

  constructor(controls: readonly FormulaControlLike[]) {
    this.formulas = formulasOf(controls);
    this.rollups = rollupsOf(controls);
    this.nodes = plan(controls, this.formulas, this.rollups);
    this.computed = new Set((this.nodes ?? []).filter((n) => n.kind !== 'column').map((n) => n.code));
  }

  /** Whether the form computes anything in the browser (formulas, or rollups over its own sub-tables). */
  get computes(): boolean {
    return this.formulas.main.length > 0 || this.formulas.grids.length > 0 || this.rollups.some((r) => !r.sourceSchemaCode);
  }

  evaluate(values: Readonly<Row>, children: Children): RecordValues {
    const last = this.last;
    if (last && last.values === values && last.children === children) return last.output;
    // A cycle (refused by the designer, but an old definition may hold one): the whole record every time.
    const output = this.nodes ? this.run(this.nodes, values, children) : computeWithRollups(this.formulas, this.rollups, values, children);
    this.last = { values, children, output };
    return output;
  }

  private run(nodes: readonly Node[], values: Readonly<Row>, children: Children): RecordValues {
    const last = this.last;
    const changes = new Changes(!last);
    const main: Row = { ...values };
    for (const code of this.computed) if (last && code in last.output.values) main[code] = last.output.values[code];
    if (last) {
      for (const code of new Set([...Object.keys(values), ...Object.keys(last.values)])) {
        if (!this.computed.has(code) && !Object.is(values[code], last.values[code])) changes.main.add(lower(code));
      }
    }
    const rows = new RowsOut(this.formulas, children, last, changes);
    const context: FormulaContext = {
      value: (code) => (code in rows.out ? rows.out[code] : main[code]),
      rows: (table) => {
        const list = table in rows.out ? rows.out[table] : main[table];
        return Array.isArray(list) ? (list as Row[]) : undefined;
      },
    };
    for (const node of nodes) {
      if (node.kind === 'main') {
        if (!changes.reaches(node)) continue;
        const next = result(node.formula!, context);
        if (!same(main[node.code], next)) (main[node.code] = next), changes.main.add(lower(node.code));
      } else if (node.kind === 'column') this.column(node, rows, changes, context);
      else {
        const next = this.rollup(node, rows, changes, context);
        if (next !== undefined && !same(main[node.code], next.value)) (main[node.code] = next.value), changes.main.add(lower(node.code));
      }
    }
    return { values: main, children: rows.out };
  }

  private column(node: Node, rows: RowsOut, changes: Changes, context: FormulaContext) {
    const count = rows.out[node.table]?.length ?? 0;
    const which = changes.reaches(node) ? 'all' : changes.rows(lower(node.table), node.sameRow);
    const evaluate = (i: number) => {
      const row = rows.out[node.table][i];
      const next = result(node.formula!, { ...context, row: { table: node.table, values: row } });
      if (!same(row[node.code], next)) {
        rows.writable(node.table, i)[node.code] = next;
        changes.cell(lower(node.table), lower(node.code), i);
      }
    };
    if (which === 'all') for (let i = 0; i < count; i++) evaluate(i);
    else for (const i of which) evaluate(i);
  }

  /** The rollup's value when one of its rows (or what its filter reads) changed; undefined when nothing did. */
  private rollup(node: Node, rows: RowsOut, changes: Changes, context: FormulaContext): { value: unknown } | undefined {
    const spec = node.rollup!;
    const list = rows.out[spec.sourceCode] ?? [];
    let entries = this.entries.get(spec.code);
    const all = !entries || entries.length !== list.length || changes.reaches(node);
    const which = all ? 'all' : changes.rows(lower(spec.sourceCode), node.sameRow);
    if (which !== 'all' && which.size === 0) return undefined;
    const entry = (row: Row): Entry => {
      if (spec.filter) {
        const passes = evaluateCondition(spec.filter, { ...context, row: { table: spec.sourceCode, values: row } });
        if (!(passes.ok && passes.value)) return LEFT_OUT;
      }
      return fromFieldValue(spec.sourceField ? row[spec.sourceField] : null);
    };
    if (which === 'all' || !entries) entries = list.map(entry);
    else for (const i of which) entries[i] = entry(list[i]);
    this.entries.set(spec.code, entries);
    return { value: aggregateValues(spec, entries.filter((e): e is FormulaValue => e !== LEFT_OUT)) };
  }
}

function result(formula: Formula, context: FormulaContext) {
  const evaluated = evaluateFormula(formula.ast, context);
  return evaluated.ok ? coerceFormulaResult(evaluated.value, formula) : null;
}

/**
 * The sub-tables as they come out: the previous call's rows where nothing changed, each changed row copied once
 * (earlier results are never written to: the page may still be showing them).
 */
class RowsOut {
  readonly out: Record<string, Row[]> = {};
  private readonly fresh = new Set<Row>();
  private readonly owned = new Set<Row[]>();

  constructor(formulas: FormFormulas, children: Children, last: { children: Children; output: RecordValues } | null, changes: Changes) {
    const computedColumns = new Map(formulas.grids.map((grid) => [grid.code, grid.columns.map((c) => c.code)]));
    const fresh = (row: Row) => {
      const copy = { ...row };
      this.fresh.add(copy);
      return copy;
    };
    for (const [code, list] of Object.entries(children)) {
      const before = last?.children[code];
      const shown = last?.output.children[code];
      if (before === list && shown) {
        this.out[code] = shown;
        continue;
      }
      changes.main.add(lower(code));
      if (!before || !shown || before.length !== list.length) {
        changes.tables.add(lower(code));
        this.own((this.out[code] = list.map(fresh)));
        continue;
      }
      const out = shown.slice();
      this.own(out);
      list.forEach((row, i) => {
        if (row === before[i]) return;
        for (const key of new Set([...Object.keys(row), ...Object.keys(before[i])])) if (!Object.is(row[key], before[i][key])) changes.cell(lower(code), lower(key), i);
        const next = fresh(row);
        for (const column of computedColumns.get(code) ?? []) if (column in shown[i]) next[column] = shown[i][column];
        out[i] = next;
      });
      this.out[code] = out;
    }
    for (const code of Object.keys(last?.children ?? {})) if (!(code in children)) changes.main.add(lower(code)), changes.tables.add(lower(code));
  }

  private own(list: Row[]) {
    this.owned.add(list);
  }

  /** Row i of a sub-table, safe to write to. */
  writable(table: string, i: number): Row {
    let list = this.out[table];
    if (!this.owned.has(list)) this.own((list = this.out[table] = list.slice()));
    if (!this.fresh.has(list[i])) {
      list[i] = { ...list[i] };
      this.fresh.add(list[i]);
    }
    return list[i];
  }
}
