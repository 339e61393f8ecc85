/**
 * Rollups (汇总, docs/decisions/0015): sum, count, max, min, is-null and not-null of a field over rows — the rows of
 * a sub-table of the record, or the Effective records of another form whose association field holds the record.
 * One function for the browser (sub-table rollups follow as people type) and the server (every save, and whenever a
 * source record changes), so both show the same number.
 */
import type { FormulaNode } from '../formula/ast.ts';
import { dependenciesOf } from '../formula/dependencies.ts';
import { computeFormulas, hasFormulas, type FormFormulas } from '../formula/compute.ts';
import { createFormulaContext } from '../formula/evaluate.ts';
import { parseFormula } from '../formula/parser.ts';
import { coerceFormulaResult, evaluateCondition } from '../formula/result.ts';
import { fromFieldValue, isEmpty, toNumber, type FormulaValue } from '../formula/values.ts';
import type { RollupType } from '../constants/formats.ts';

type Row = Record<string, unknown>;

export interface RollupSpec {
  code: string;
  rollupType: RollupType;
  /** A sub-table of this form, or (sourceSchemaCode set) the association field of the other form. */
  sourceCode: string;
  sourceField: string | null;
  /** The other form whose records are rolled up; null for a sub-table. */
  sourceSchemaCode: string | null;
  filter: FormulaNode | null;
  filterText: string;
  bindType: 'decimal' | 'string' | 'datetime' | 'bool';
  decimalPlaces?: number;
}

interface ControlLike {
  type: string;
  code: string;
  options?: unknown;
  controls?: readonly ControlLike[];
  panes?: readonly { controls: readonly ControlLike[] }[];
}

/** The rollup controls of a definition that are fully set (main table only: rollups are not placed in sub-tables). */
export function rollupsOf(controls: readonly ControlLike[]): RollupSpec[] {
  const out: RollupSpec[] = [];
  const walk = (list: readonly ControlLike[]) => {
    for (const control of list) {
      if (control.type === 'gridView') continue;
      if (control.type === 'rollup') {
        const spec = compileRollup(control);
        if (spec) out.push(spec);
      }
      if (control.controls) walk(control.controls);
      control.panes?.forEach((pane) => walk(pane.controls));
    }
  };
  walk(controls);
  return out;
}

export function compileRollup(control: ControlLike): RollupSpec | null {
  const o = (control.options ?? {}) as Record<string, unknown>;
  const rollupType = (o.rollupType ?? 'sum') as RollupType;
  if (typeof o.sourceCode !== 'string' || !o.sourceCode) return null;
  const sourceField = typeof o.sourceField === 'string' && o.sourceField ? o.sourceField : null;
  if (!sourceField && rollupType !== 'count') return null;
  const filterText = typeof o.filter === 'string' ? o.filter.trim() : '';
  const filter = filterText ? parseFormula(filterText).ast : null;
  const bindType = (['decimal', 'string', 'datetime', 'bool'] as const).find((t) => t === String(o.bindType ?? 'decimal').toLowerCase()) ?? 'decimal';
  return {
    code: control.code,
    rollupType,
    sourceCode: o.sourceCode,
    sourceField,
    sourceSchemaCode: typeof o.sourceSchemaCode === 'string' && o.sourceSchemaCode ? o.sourceSchemaCode : null,
    filter,
    filterText,
    bindType,
    decimalPlaces: typeof o.decimalPlaces === 'number' ? o.decimalPlaces : undefined,
  };
}

/** The fields of the source rows a rollup reads: its field and its filter's (codes as written in the filter). */
export function rollupSourceFields(spec: RollupSpec): string[] {
  const fields = spec.sourceField ? [spec.sourceField] : [];
  for (const code of spec.filter ? dependenciesOf(spec.filter) : []) if (!fields.includes(code)) fields.push(code);
  return fields;
}

/**
 * The rows that pass the filter. Sub-table rows (`record` given): the filter sees the record, `{Table.Code}` being
 * that row's value. Records of another form: the filter reads each record's own fields.
 */
export function filterRows(spec: RollupSpec, rows: readonly Row[], record?: { values: Row; children: Record<string, readonly Row[]> }): Row[] {
  if (!spec.filter) return [...rows];
  const filter = spec.filter;
  if (record) {
    const base = createFormulaContext({ ...record.values, ...record.children });
    return rows.filter((row) => {
      const r = evaluateCondition(filter, { ...base, row: { table: spec.sourceCode, values: row } });
      return r.ok && r.value;
    });
  }
  return rows.filter((row) => {
    const r = evaluateCondition(filter, createFormulaContext(row));
    return r.ok && r.value;
  });
}

/** The rollup of rows already filtered: empty values are skipped by sum/max/min; count counts rows. */
export function aggregate(spec: Pick<RollupSpec, 'rollupType' | 'sourceField' | 'bindType' | 'decimalPlaces'>, rows: readonly Row[]): string | number | boolean | null {
  return aggregateValues(spec, rows.map((row) => fromFieldValue(spec.sourceField ? row[spec.sourceField] : null)));
}

/** The rollup of the filtered rows' values of its field, one per row in row order (what the runtime keeps per row). */
export function aggregateValues(spec: Pick<RollupSpec, 'rollupType' | 'bindType' | 'decimalPlaces'>, values: readonly FormulaValue[]): string | number | boolean | null {
  let result: number | null;
  switch (spec.rollupType) {
    case 'count':
      result = values.length;
      break;
    case 'isNull':
      result = values.filter((v) => isEmpty(v)).length;
      break;
    case 'notNull':
      result = values.filter((v) => !isEmpty(v)).length;
      break;
    default: {
      const numbers = values.filter((v) => !isEmpty(v)).map((v) => toNumber(v)).filter((n) => Number.isFinite(n));
      if (spec.rollupType === 'sum') result = numbers.reduce((a, b) => a + b, 0);
      else result = numbers.length ? (spec.rollupType === 'max' ? Math.max(...numbers) : Math.min(...numbers)) : null;
    }
  }
  return coerceFormulaResult(result, { bindType: spec.bindType === 'bool' ? 'decimal' : spec.bindType, decimalPlaces: spec.decimalPlaces });
}

/** A sub-table rollup over the record as it is (the runtime as people type; the server on save). */
export function subTableRollup(spec: RollupSpec, values: Row, children: Record<string, readonly Row[]>): string | number | boolean | null {
  const rows = children[spec.sourceCode] ?? [];
  return aggregate(spec, filterRows(spec, rows, { values, children }));
}

/**
 * A record's formulas and sub-table rollups together, as the form runtime shows them while people type and the server
 * stores them: formulas first (a rollup may read a formula column), then the rollups, then the formulas again (a
 * formula may read a rollup) — and again while a rollup still changes (a rollup over a formula column that reads a
 * rollup), so the server stores what LiveRecord shows. Each extra round costs one pass of the rollups when nothing
 * changed. Rollups over other forms keep the value the server stored.
 */
export function computeWithRollups(
  formulas: FormFormulas,
  rollups: readonly RollupSpec[],
  values: Readonly<Row>,
  children: Readonly<Record<string, readonly Row[]>>,
): { values: Row; children: Record<string, Row[]> } {
  let current = computeFormulas(formulas, values, children);
  const own = rollups.filter((spec) => !spec.sourceSchemaCode);
  if (!own.length) return current;
  // Bounded: each round settles at least one more rollup of a chain (a cycle is refused by the designer).
  for (let round = 0; round <= own.length; round++) {
    const rolled = Object.fromEntries(own.map((spec) => [spec.code, subTableRollup(spec, current.values, current.children)]));
    if (round > 0 && own.every((spec) => Object.is(rolled[spec.code], current.values[spec.code]))) break;
    const withRollups = { ...current.values, ...rolled };
    if (!hasFormulas(formulas)) return { values: withRollups, children: current.children };
    current = computeFormulas(formulas, withRollups, current.children);
  }
  return current;
}
