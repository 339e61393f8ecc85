import type { contracts } from '@tritium/shared';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// The port through which business rules (a layer above form design, docs/decisions/0015) take part in publish and
// in checkreference, without form design importing them (docs/decisions/0026: the module graph is a DAG). The app
// registers the business-rules implementation at start (registerFormRules in business-rules/publish-checks.ts).

export interface FormRules {
  /** Publish's part, in its transaction before the tables change: refuses what does not fit, records the rest. */
  publishRulesAndRollups(edb: EngineExecutor, schemaCode: string, draft: contracts.FormDefinition, options: { dryRun: boolean }): Promise<void>;
  /** What would break if the control went: rules and rollups of this form and others that read or write it. */
  ruleAndRollupReferences(edb: EngineExecutor, schemaCode: string, code: string): Promise<contracts.ControlReference[]>;
}

let rules: FormRules | undefined;

export function setFormRules(next: FormRules): void {
  rules = next;
}

/** The registered part; publishing without it would skip the rule checks, so it refuses instead. */
export function formRules(): FormRules {
  if (!rules) throw new Error('form rules not registered: call registerFormRules() (business-rules) at start');
  return rules;
}

export const publishRulesAndRollups: FormRules['publishRulesAndRollups'] = (...args) => formRules().publishRulesAndRollups(...args);
export const ruleAndRollupReferences: FormRules['ruleAndRollupReferences'] = (...args) => formRules().ruleAndRollupReferences(...args);
