import { hiddenByCondition } from '@tritium/shared/formula/index';
import type { LocalizableIssue } from '@tritium/shared/validation/messages';
import { parameterError } from '../../lib/app-error.ts';
import { checkValue, defaultValueOf, isEmpty, type Issue } from './field-values.ts';
import { byCode, type GridField, type RuntimeForm } from './runtime-form.ts';

// What a save sends, checked against the published schema before anything is written (docs/decisions/0007):
// every value by its control type's value schema, unknown codes refused, required fields filled. One 777 answer
// lists every problem (detail.issues: values.<code>, children.<grid>.<row>.<code>).

export interface CheckedChildRow {
  objectId?: string;
  values: Record<string, unknown>;
}

export interface CheckedInput {
  /** Main-table values to write (only the codes sent, or every field on create). */
  values: Record<string, unknown>;
  /** Sub-tables sent: grid code → rows. */
  children: Map<string, CheckedChildRow[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkChildRows(grid: GridField, rows: Record<string, unknown>[], issues: Issue[]): CheckedChildRow[] {
  const codes = byCode(grid.fields);
  return rows.map((row, i) => {
    const base = `children.${grid.code}.${i}`;
    const out: CheckedChildRow = { values: {} };
    for (const [code, value] of Object.entries(row)) {
      if (code === 'ObjectId') {
        if (value != null && (typeof value !== 'string' || !UUID.test(value))) issues.push({ path: `${base}.ObjectId`, message: '行标识无效' });
        else if (value) out.objectId = value;
        continue;
      }
      const field = codes.get(code);
      if (!field) {
        issues.push({ path: `${base}.${code}`, message: '子表没有这个字段' });
        continue;
      }
      out.values[code] = checkValue(field, value, `${base}.${code}`, issues);
    }
    for (const field of grid.fields) {
      if (!(field.code in out.values)) out.values[field.code] = null;
      if (field.options.required && isEmpty(out.values[field.code])) issues.push({ path: `${base}.${field.code}`, message: '必填' });
    }
    return out;
  });
}


/**
 * Checks a save's values and sub-table rows. On create, codes not sent take their DefaultValue; `current` (an
 * existing record's values) fills the codes not sent for the required check.
 */
export function checkInput(
  form: RuntimeForm,
  body: { values?: Record<string, unknown>; children?: Record<string, Record<string, unknown>[]> },
  options: { isNew: boolean; current?: Record<string, unknown>; currentChildCounts?: Map<string, number>; who: { userId: string; deptId: string | null }; now: Date },
): CheckedInput {
  const issues: Issue[] = [];
  const fields = byCode(form.fields);
  const values: Record<string, unknown> = {};
  const sent = body.values ?? {};
  // Keys, not entries: no pair array a value (a batch checks every value of every record).
  for (const code of Object.keys(sent)) {
    const value = sent[code];
    const field = fields.get(code);
    if (!field) {
      issues.push({ path: `values.${code}`, message: '表单没有这个字段' });
      continue;
    }
    values[code] = checkValue(field, value, `values.${code}`, issues);
  }
  if (options.isNew) for (const field of form.fields) if (!(field.code in values)) values[field.code] = defaultValueOf(field, options.who, options.now);
  for (const field of form.fields) {
    const value = field.code in values ? values[field.code] : options.current?.[field.code];
    if (field.options.required && isEmpty(value) && !issues.some((i) => i.path === `values.${field.code}`) && !hiddenByCondition(field.options.hideCondition, { ...options.current, ...values })) {
      // A control its hide condition hides is not required (the runtime does not show it).
      issues.push({ path: `values.${field.code}`, message: '必填' });
    }
  }
  const children = new Map<string, CheckedChildRow[]>();
  const grids = byCode(form.grids);
  for (const [code, rows] of Object.entries(body.children ?? {})) {
    const grid = grids.get(code);
    if (!grid) {
      issues.push({ path: `children.${code}`, message: '表单没有这个子表' });
      continue;
    }
    children.set(code, checkChildRows(grid, rows, issues));
  }
  for (const grid of form.grids) {
    const count = children.get(grid.code)?.length ?? (options.isNew ? 0 : (options.currentChildCounts?.get(grid.code) ?? 0));
    if (grid.options.required && count === 0) issues.push({ path: `children.${grid.code}`, message: '必填' });
  }
  if (issues.length) throw parameterError(labelled(form, issues));
  return { values, children };
}

const nameOf = (options: Record<string, unknown>, code: string) => String(options.displayName ?? '') || code;

/** Each issue names its field by the control's display name (docs/decisions/0028); the error handler puts it in front. */
function labelled(form: RuntimeForm, issues: Issue[]): LocalizableIssue[] {
  return issues.map((issue) => {
    if ((issue as LocalizableIssue).label) return issue;
    const [kind, code = '', row, childCode] = issue.path.split('.');
    const field = kind === 'values' ? form.fields.find((f) => f.code === code) : undefined;
    const grid = kind === 'children' ? form.grids.find((g) => g.code === code) : undefined;
    const child = grid && childCode ? grid.fields.find((f) => f.code === childCode) : undefined;
    const label = field ? nameOf(field.options, field.code) : grid ? (child ? `${nameOf(grid.options, grid.code)}.${nameOf(child.options, child.code)}` : row === undefined ? nameOf(grid.options, grid.code) : undefined) : undefined;
    return label ? { ...issue, label } : issue;
  });
}
