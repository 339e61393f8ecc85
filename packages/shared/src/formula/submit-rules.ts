/**
 * Submit rules (提交校验, domain.md §5 "A submit rule may show an error message or hide the button"): a condition in
 * the formula language over the record as it will be submitted. While it is true the record cannot be submitted:
 * `error` refuses Submit with the rule's message, `hideButton` hides the Submit buttons. The runtime checks them as
 * people press Submit and hides buttons live; the server checks every rule again on Submit (docs/decisions/0016).
 */
import { z } from 'zod';
import { createFormulaContext } from './evaluate.ts';
import { evaluateCondition } from './result.ts';

export const SUBMIT_RULE_ACTIONS = ['error', 'hideButton'] as const;
export const SUBMIT_RULES_MAX = 20;

export const SubmitRule = z.strictObject({
  /** True blocks the submit, e.g. `{Total} > 10000 && ISNULL({Approver})`. */
  condition: z.string().trim().min(1, '请填写校验条件').max(2000),
  action: z.enum(SUBMIT_RULE_ACTIONS).default('error'),
  /** Shown when the rule refuses (error); a hidden button shows nothing. */
  message: z.string().trim().max(200, '提示最多200个字符').default(''),
});
export type SubmitRule = z.output<typeof SubmitRule>;

export const SubmitRules = z.array(SubmitRule).max(SUBMIT_RULES_MAX, `最多${SUBMIT_RULES_MAX}条提交校验`).default(() => []);

/** The message a refused submit shows when its rule has none. */
export const SUBMIT_RULE_DEFAULT_MESSAGE = '不满足提交条件，不能提交';

/**
 * The rules that hold for a record (`values`: main fields and sub-table rows by code): those whose condition is true.
 * A condition that does not evaluate (a mistake in the rule) does not block.
 */
export function blockingSubmitRules(rules: readonly SubmitRule[] | undefined, values: Readonly<Record<string, unknown>>, options: { now?: Date | number | string; unitName?(id: string): string | undefined } = {}): SubmitRule[] {
  if (!rules?.length) return [];
  const context = createFormulaContext(values, options);
  return rules.filter((rule) => {
    const result = evaluateCondition(rule.condition, context);
    return result.ok && result.value;
  });
}

export const submitRuleMessage = (rule: SubmitRule) => rule.message || SUBMIT_RULE_DEFAULT_MESSAGE;
