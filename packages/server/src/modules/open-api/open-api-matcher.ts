import { OPERATOR_CODES, type ProductMatcher } from '@tritium/shared/query/index';
import type { DataField, RuntimeForm } from '../business-data/runtime-form.ts';
import { localToIso } from './open-api-values.ts';

// A LoadBizObjects Matcher's Item values in the product's formats → the query engine's (docs/decisions/0021, 0030):
// - moments `yyyy-MM-dd HH:mm[:ss]` are China time (a date alone keeps the engine's whole-day meaning);
// - multi-value columns (checkbox list, batch scan, multi-user / department / association) travel as `a;b`: Equal and
//   NotEqual compare the whole set, In / NotIn / Contains / NotContains read the items one by one (a list given,
//   or `a;b`, or a list of `a;b`, is the items of all of them). StartWith / EndWith keep the text: they read the
//   record's `a;b` text.

const ITEM_WISE = new Set(['Equal', 'NotEqual', 'In', 'NotIn', 'Contains', 'NotContains']);

/** The column a Matcher Name names (a main field, or `grid.field` of a sub-table), if any. */
function fieldOf(form: RuntimeForm, name: unknown): DataField | undefined {
  if (typeof name !== 'string') return undefined;
  const [head, tail] = name.split('.', 2);
  if (tail === undefined) return form.fields.find((f) => f.code === head);
  return form.grids.find((g) => g.code === head)?.fields.find((f) => f.code === tail);
}

function items(value: unknown): unknown {
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((v) => (typeof v === 'string' ? v.split(';').map((s) => s.trim()).filter(Boolean) : [v]));
}

export function matcherValuesIn(form: RuntimeForm, m: ProductMatcher): ProductMatcher {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return m;
  if (Array.isArray(m.Matchers)) return { ...m, Matchers: m.Matchers.map((c) => matcherValuesIn(form, c)) };
  if (!('Value' in m)) return m;
  const code = typeof m.Operator === 'string' && /^\d{1,3}$/.test(m.Operator) ? Number(m.Operator) : m.Operator;
  const operator = typeof code === 'number' && Object.hasOwn(OPERATOR_CODES, code) ? OPERATOR_CODES[code] : undefined;
  const field = fieldOf(form, m.Name);
  if (field?.sqlType === 'text[]' && operator && ITEM_WISE.has(operator)) return { ...m, Value: items(m.Value) };
  const iso = (v: unknown) => localToIso(v, true);
  return { ...m, Value: Array.isArray(m.Value) ? m.Value.map(iso) : iso(m.Value) };
}
