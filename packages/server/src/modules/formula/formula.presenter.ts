import type { contracts } from '@tritium/shared';
import { FORMULA_CATEGORY_NAMES, type FormulaFunctionInfo } from '@tritium/shared/formula/index';

/** A catalogue entry for the formula editor; how it is implemented (listArgs, source) stays inside. */
export function presentFunction(info: FormulaFunctionInfo): contracts.FormulaFunctionDto {
  return {
    name: info.name,
    category: info.category,
    categoryName: FORMULA_CATEGORY_NAMES[info.category],
    signature: info.signature,
    description: info.description,
    example: info.example,
    exampleResult: info.exampleResult,
    minArgs: info.minArgs,
    maxArgs: info.maxArgs,
    returns: info.returns,
    ...(info.aliasOf ? { aliasOf: info.aliasOf } : {}),
  };
}
