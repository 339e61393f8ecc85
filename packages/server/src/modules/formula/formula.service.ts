import type { contracts } from '@tritium/shared';
import {
  checkFormula, dependenciesOf, formulaTypeOfDataType, parseFormula, walkFormula,
  type FormulaError, type FormulaFields, type FormulaNode, type FormulaType,
} from '@tritium/shared/formula/index';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getPublishedFormOrThrow } from '../form-design/form-schema.service.ts';
import { schemaPropertiesOf } from '../form-design/schema.presenter.ts';

// Parsing and checking formulas for the designer's formula editor (docs/decisions/0012-formula-language.md). The
// language itself lives in packages/shared/src/formula so the runtime and the server evaluate it the same way.

/** The published form's fields as the formula checker reads them: main-table columns and each sub-table's. */
async function publishedFields(ctx: NodeContext, schemaCode: string): Promise<FormulaFields> {
  const form = await getPublishedFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const { properties, childSchemas } = schemaPropertiesOf(form.definition, form.node.node_type);
  const typed = (list: { name: string; dataType: string }[]) =>
    Object.fromEntries(list.map((p) => [p.name, formulaTypeOfDataType(p.dataType)])) as Record<string, FormulaType>;
  return {
    fields: typed(properties),
    tables: Object.fromEntries(childSchemas.map((child) => [child.schemaCode, typed(child.properties)])),
  };
}

function functionsOf(ast: FormulaNode): string[] {
  const names: string[] = [];
  for (const node of walkFormula(ast)) if (node.type === 'call' && !names.includes(node.name)) names.push(node.name);
  return names;
}

/** POST /v1/formula/expression/parse: syntax, and with schemaCode the references too. */
export async function parseExpression(ctx: NodeContext, body: contracts.FormulaParseBody): Promise<contracts.FormulaParseResult> {
  const { ast, errors } = parseFormula(body.expression);
  if (!ast) return { valid: false, errors, dependencies: [], functions: [], ast: null };
  const problems: FormulaError[] = body.schemaCode ? checkFormula(ast, await publishedFields(ctx, body.schemaCode)).errors : [];
  return { valid: problems.length === 0, errors: problems, dependencies: dependenciesOf(ast), functions: functionsOf(ast), ast };
}

/** POST /v1/formula/expression/validate: references, types and the result type against the published form. */
export async function validateExpression(ctx: NodeContext, body: contracts.FormulaValidateBody): Promise<contracts.FormulaValidateResult> {
  const fields = await publishedFields(ctx, body.schemaCode);
  const { ast, errors } = parseFormula(body.expression);
  if (!ast) return { valid: false, errors, dependencies: [], resultType: null };
  if (body.table && !Object.hasOwn(fields.tables, body.table)) {
    return { valid: false, errors: [{ message: `子表 ${body.table} 不存在`, start: 0, end: body.expression.length }], dependencies: dependenciesOf(ast), resultType: null };
  }
  const checked = checkFormula(ast, fields, { table: body.table, bindType: body.bindType });
  return { valid: checked.errors.length === 0, errors: checked.errors, dependencies: dependenciesOf(ast), resultType: checked.type };
}
