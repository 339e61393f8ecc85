/**
 * Default-value formulas (默认值 "公式"): a control's value computed by a formula when a record is created (option
 * `defaultFormula` of input controls, docs/decisions/0016). The server computes them in loaddata for a new record
 * (so a new form shows them) from the other defaults; afterwards the value is the person's to change.
 */
import { createFormulaContext, evaluateFormula } from './evaluate.ts';
import { parseFormula } from './parser.ts';
import { coerceFormulaResult } from './result.ts';
import type { FormulaOutput } from './values.ts';

interface ControlLike {
  code: string;
  type: { dataType: string; value: { safeParse(value: unknown): { success: boolean } } | null };
  options: Record<string, unknown>;
}

/** A formula's result as a value of the control's type (registry value format), or null when it is not one. */
export function formulaValueForControl(control: ControlLike, output: FormulaOutput): unknown {
  const { dataType } = control.type;
  const places = typeof control.options.decimalPlaces === 'number' ? control.options.decimalPlaces : undefined;
  let value: unknown;
  if (dataType === 'decimal' || dataType === 'int') value = coerceFormulaResult(output, { bindType: 'decimal', decimalPlaces: dataType === 'int' ? 0 : places ?? 10 });
  else if (dataType === 'datetime') value = coerceFormulaResult(output, { bindType: 'datetime' });
  else if (dataType === 'bool') value = coerceFormulaResult(output, { bindType: 'bool' });
  else if (Array.isArray(output)) value = output.filter((item) => item !== null && item !== '').map(String);
  else value = coerceFormulaResult(output, { bindType: 'string' });
  if (value === null || !control.type.value) return value ?? null;
  return control.type.value.safeParse(value).success ? value : null;
}

/**
 * The values of a new record with every default formula applied, in the order the controls are given; a formula
 * reads the defaults before it and the other controls' plain defaults. Formulas that fail leave the plain default.
 */
export function applyDefaultFormulas(controls: readonly ControlLike[], defaults: Readonly<Record<string, unknown>>, options: { now?: Date | number | string; unitName?(id: string): string | undefined } = {}): Record<string, unknown> {
  const values: Record<string, unknown> = { ...defaults };
  for (const control of controls) {
    const formula = control.options.defaultFormula;
    if (typeof formula !== 'string' || !formula.trim()) continue;
    const parsed = parseFormula(formula);
    if (!parsed.ast) continue;
    const result = evaluateFormula(parsed.ast, createFormulaContext(values, options));
    if (result.ok) values[control.code] = formulaValueForControl(control, result.value);
  }
  return values;
}

/** Ids a formula's GETUNITNAME calls may ask for, to look their names up before evaluating (server). */
export function usesUnitNames(expressions: readonly unknown[]): boolean {
  return expressions.some((e) => typeof e === 'string' && /GETUNITNAME\s*\(/i.test(e));
}
