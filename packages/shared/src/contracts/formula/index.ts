import { z } from 'zod';
import { BIND_TYPES } from '../../controls/options/computed.ts';
import { FORMULA_CATEGORIES, FORMULA_TYPES } from '../../formula/catalogue.ts';
import { listOf } from '../common.ts';
import { SchemaCode } from '../form-design/index.ts';

// The formula language's calls (issue 7; docs/decisions/0012-formula-language.md): POST /v1/formula/expression/parse
// and /validate, GET /v1/formula/function/list. The spec names the calls, not their payloads.

/** A problem in an expression: zh-CN text and the span it is about (UTF-16 offsets, end exclusive). */
export const FormulaErrorDto = z.object({ message: z.string(), start: z.number().int(), end: z.number().int() });
export type FormulaErrorDto = z.infer<typeof FormulaErrorDto>;

const Expression = z.string().max(10_000, '公式最多10000个字符');

/** Syntax of an expression; with schemaCode, its field references are also checked against the published form. */
export const FormulaParseBody = z.strictObject({ expression: Expression, schemaCode: SchemaCode.optional() });
export type FormulaParseBody = z.input<typeof FormulaParseBody>;
export const FormulaParseResult = z.object({
  valid: z.boolean(),
  errors: z.array(FormulaErrorDto),
  /** Field codes referenced, as written (`Qty`, `Lines.Qty`), each once. */
  dependencies: z.array(z.string()),
  /** Functions called, each once. */
  functions: z.array(z.string()),
  /** The syntax tree (packages/shared/src/formula/ast.ts), null when the expression does not parse. */
  ast: z.unknown().nullable(),
});
export type FormulaParseResult = z.infer<typeof FormulaParseResult>;

/** An expression against a published form: references exist, types fit, the result suits the control's bindType. */
export const FormulaValidateBody = z.strictObject({
  expression: Expression,
  schemaCode: SchemaCode,
  /** The sub-table the formula's control sits in: `{table.Code}` then reads the same row. */
  table: z.string().trim().min(1).max(63).optional(),
  /** The formula control's result type. */
  bindType: z.enum(BIND_TYPES).optional(),
});
export type FormulaValidateBody = z.input<typeof FormulaValidateBody>;
export const FormulaValidateResult = z.object({
  valid: z.boolean(),
  errors: z.array(FormulaErrorDto),
  dependencies: z.array(z.string()),
  /** What the formula gives (number, text, bool, date, list, any); null when it does not parse. */
  resultType: z.enum(FORMULA_TYPES).nullable(),
});
export type FormulaValidateResult = z.infer<typeof FormulaValidateResult>;

/** One function of the catalogue, for the formula editor. */
export const FormulaFunctionDto = z.object({
  name: z.string(),
  category: z.enum(FORMULA_CATEGORIES),
  categoryName: z.string(),
  signature: z.string(),
  description: z.string(),
  example: z.string(),
  exampleResult: z.string(),
  minArgs: z.number().int(),
  /** null: any number of arguments. */
  maxArgs: z.number().int().nullable(),
  returns: z.enum(FORMULA_TYPES),
  aliasOf: z.string().optional(),
});
export type FormulaFunctionDto = z.infer<typeof FormulaFunctionDto>;

/** GET /v1/formula/function/list?category: every function, or one category's. */
export const FormulaFunctionListQuery = z.object({ category: z.enum(FORMULA_CATEGORIES).optional() });
export const FormulaFunctionListResult = listOf(FormulaFunctionDto);
export type FormulaFunctionListResult = z.infer<typeof FormulaFunctionListResult>;
