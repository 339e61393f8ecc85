import type { contracts } from '@tritium/shared';
import { rollupsOf, type BusinessRule, type RuleValue } from '@tritium/shared/business-rules/index';
import { dependenciesOf } from '@tritium/shared/formula/index';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { dependantsOf, publishedRulesOf, rulesRowOf } from './business-rules.repo.ts';

// checkreference's part (docs/decisions/0015): what would break if a control of the form went — this form's rules
// that read it, other forms' rules that write or match it, other forms' rollups that read it.

type Reference = contracts.ControlReference;
const same = (a: string | null | undefined, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

function reads(value: RuleValue, code: string): boolean {
  if (value.type === 'field') return value.code.split('.').some((part) => same(part, code));
  if (value.type === 'formula') return dependenciesOf(value.expression).some((d) => d.split('.').some((part) => same(part, code)));
  return false;
}

const ruleReads = (rule: BusinessRule, code: string) =>
  same(rule.forEachRow, code) || rule.mappings.some((m) => reads(m.value, code)) || rule.conditions.some((c) => reads(c.value, code));
const ruleWrites = (rule: BusinessRule, code: string) => rule.mappings.some((m) => same(m.field, code)) || rule.conditions.some((c) => same(c.field, code));

export async function ruleAndRollupReferences(edb: EngineExecutor, schemaCode: string, code: string): Promise<Reference[]> {
  const out: Reference[] = [];
  const own = await rulesRowOf(edb, schemaCode);
  const seen = new Set<string>();
  for (const rule of [...(own?.draft ?? []), ...(own?.published ?? [])]) {
    if (seen.has(rule.id) || !ruleReads(rule, code)) continue;
    seen.add(rule.id);
    out.push({ kind: 'businessRule', schemaCode, name: rule.name, detail: rule.targetSchemaCode });
  }
  const forms = new FormCache(edb);
  for (const dep of await dependantsOf(edb, schemaCode)) {
    if (dep.kind === 'rule') {
      const rule = (await publishedRulesOf(edb, dep.schema_code)).find((r) => r.id === dep.item);
      if (rule && same(rule.targetSchemaCode, schemaCode) && ruleWrites(rule, code)) out.push({ kind: 'businessRule', schemaCode: dep.schema_code, name: rule.name, detail: code });
      continue;
    }
    const form = await forms.get(dep.schema_code);
    const spec = form && rollupsOf(form.definition.controls).find((s) => s.code === dep.item);
    if (!spec || !same(spec.sourceSchemaCode, schemaCode)) continue;
    const filterReads = spec.filter ? dependenciesOf(spec.filter).some((d) => same(d, code)) : false;
    if (same(spec.sourceCode, code) || same(spec.sourceField, code) || filterReads) {
      const name = String((form.fields.find((f) => f.code === spec.code)?.options.displayName as string | undefined) ?? spec.code);
      out.push({ kind: 'rollup', schemaCode: dep.schema_code, name, detail: spec.code });
    }
  }
  return out;
}
