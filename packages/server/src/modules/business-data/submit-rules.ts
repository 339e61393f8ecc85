import { blockingSubmitRules, submitRuleMessage, usesUnitNames } from '@tritium/shared/formula/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { controlsOf } from './data-link.service.ts';
import type { RuntimeForm } from './runtime-form.ts';
import { unitNamesIn } from './record.presenter.ts';

// Submit rules (提交校验, docs/decisions/0016): on Submit the server evaluates every rule of the published form over
// the record as it will be stored (formulas, fills and links applied) and refuses while one holds — a rule that only
// hides the button refuses too, so a client that shows the button anyway cannot submit. Save (暂存) is not checked.

type Row = Record<string, unknown>;

export function checkSubmitRules(form: RuntimeForm, values: Row, children: Record<string, Row[]>, options: { now: Date; unitName?(id: string): string | undefined }): void {
  const rules = form.definition.attributes.submitRules ?? [];
  const blocking = blockingSubmitRules(rules, { ...values, ...children }, options);
  if (!blocking.length) return;
  const rule = blocking[0];
  throw new AppError('SubmitRuleFailed', {
    message: rule.action === 'error' ? submitRuleMessage(rule) : undefined,
    detail: { index: rules.indexOf(rule), action: rule.action },
  });
}


/** Whether any formula of the form (formula controls, default formulas, submit rules) calls GETUNITNAME. */
export function formUsesUnitNames(form: RuntimeForm): boolean {
  let uses = usingUnitNames.get(form);
  if (uses === undefined) {
    const expressions = controlsOf(form).flatMap((c) => [c.options.expression, c.options.defaultFormula]);
    usingUnitNames.set(form, (uses = usesUnitNames([...expressions, ...(form.definition.attributes.submitRules ?? []).map((r) => r.condition)])));
  }
  return uses;
}
const usingUnitNames = new WeakMap<RuntimeForm, boolean>();

/**
 * GETUNITNAME on the server (docs/decisions/0012 left it to the browser): the names of the users and departments
 * whose ids the record holds, looked up once before the formulas run. undefined when no formula asks for names.
 */
export async function unitNamesFor(edb: EngineExecutor, form: RuntimeForm, records: readonly unknown[]): Promise<((id: string) => string | undefined) | undefined> {
  return formUsesUnitNames(form) ? unitNamesIn(edb, records) : undefined;
}


