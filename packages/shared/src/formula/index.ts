/**
 * The formula language (docs/decisions/0012-formula-language.md): one parser and evaluator for the browser and the
 * server. Entry points: parseFormula, evaluateFormula, FORMULA_FUNCTIONS, dependenciesOf, findFormulaCycles, checkFormula.
 */
export type { FormulaError, FormulaNode, Span, BinaryOperator, UnaryOperator, FieldNode, CallNode } from './ast.ts';
export { walkFormula } from './ast.ts';
export { parseFormula, type ParseResult } from './parser.ts';
export { evaluateFormula, createFormulaContext, type FormulaContext, type FormulaResult } from './evaluate.ts';
export type { FormulaOutput } from './values.ts';
export {
  FORMULA_FUNCTIONS, FORMULA_CATEGORIES, FORMULA_CATEGORY_NAMES, FORMULA_TYPES, formulaFunction,
  type FormulaFunctionInfo, type FormulaCategory, type FormulaType,
} from './catalogue.ts';
export { dependenciesOf, findFormulaCycles, formulaGraph, formulaOrder, type FormulaControlLike, type FormulaGraphNode } from './dependencies.ts';
export { checkFormula, formulaTypeOfDataType, type FormulaFields, type FormulaCheckOptions, type FormulaCheckResult } from './check.ts';
export { coerceFormulaResult, evaluateCondition, type FormulaResultOptions, type ConditionResult } from './result.ts';
export { upperMoney } from './money.ts';
export { FORMULA_TIME_ZONE } from './dates.ts';
export { computeFormulas, formulasOf, hasFormulas, hiddenByCondition, type FormFormulas } from './compute.ts';
export { associationFilterToQuery, associationFilterSourceFields, THIS_FORM_PREFIX, type AssociationFilterResult } from './association-filter.ts';
export { SubmitRule, SubmitRules, SUBMIT_RULE_ACTIONS, SUBMIT_RULES_MAX, SUBMIT_RULE_DEFAULT_MESSAGE, blockingSubmitRules, submitRuleMessage } from './submit-rules.ts';
export { applyDefaultFormulas, formulaValueForControl, usesUnitNames } from './default-formulas.ts';
