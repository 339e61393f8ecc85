/**
 * From a formula's result to what a control stores, and conditions (hide conditions, submit rules): the same
 * conversion in the runtime and on save, so the browser shows what the server stores.
 */
import * as formulajs from '@formulajs/formulajs';
import type { FormulaError, FormulaNode } from './ast.ts';
import { evaluateFormula, type FormulaContext } from './evaluate.ts';
import { cleanNumber, fromFieldValue, toBool, toDate, toNumber, toOutput, toText, type FormulaOutput } from './values.ts';

export interface FormulaResultOptions {
  /** The computed control's bindType (controls/options/computed.ts). */
  bindType: 'decimal' | 'string' | 'datetime' | 'bool';
  /** Applied to decimal results, rounded half away from zero (formulajs ROUND). */
  decimalPlaces?: number;
}

/**
 * A result as the control's value: decimal → a number rounded to its places (text that is not a number → null),
 * string → text, datetime → an ISO moment (+08:00), bool → true/false. Empty stays null (false for bool).
 */
export function coerceFormulaResult(output: FormulaOutput, options: FormulaResultOptions): string | number | boolean | null {
  const value = fromFieldValue(output);
  switch (options.bindType) {
    case 'bool':
      return toBool(value);
    case 'string': {
      const text = toText(value);
      return text === '' ? null : text;
    }
    case 'datetime': {
      const date = toDate(value);
      return date ? (toOutput(date) as string) : null;
    }
    default: {
      if (value === null) return null;
      const n = toNumber(value);
      const rounded: unknown = Number.isFinite(n) ? formulajs.ROUND(n, options.decimalPlaces ?? 0) : null;
      return typeof rounded === 'number' ? cleanNumber(rounded) : null;
    }
  }
}

export type ConditionResult = { ok: true; value: boolean } | { ok: false; error: FormulaError };

/** A condition such as a hide condition (hidden while true): '' is never true. */
export function evaluateCondition(formula: string | FormulaNode, context: FormulaContext): ConditionResult {
  if (typeof formula === 'string' && formula.trim() === '') return { ok: true, value: false };
  const result = evaluateFormula(formula, context);
  return result.ok ? { ok: true, value: toBool(fromFieldValue(result.value)) } : result;
}
