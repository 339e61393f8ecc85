import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormulaEditor } from '../../formula/formula-editor.tsx';
import { usePublishedSchema } from '../../formula/formula-api.ts';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { optionLabel } from '../labels.ts';
import { FieldRow, errorsAt, fieldId, type FieldContext } from '../options/field-row.tsx';
import type { OptionPath } from '../options/schema-fields.ts';
import { locateControl } from '../state/control-tree.ts';
import { DataLinkEditor } from './data-link-editor.tsx';
import { draftFormulaFields, schemaFormulaFields, thisFormFields } from './designer-fields.ts';

// Options edited with their own editors rather than the generic ones (docs/decisions/0016): formulas in the CodeMirror
// editor (formula controls, default values, hide conditions, association data ranges) and data links.

const FORMULA_KEYS = new Set(['expression', 'hideCondition', 'defaultFormula', 'associationFilter']);

export const isSpecialOption = (key: string, path: OptionPath) => path.length === 1 && (FORMULA_KEYS.has(key) || key === 'dataLink');

interface SpecialOptionProps {
  fieldKey: string;
  value: unknown;
  path: OptionPath;
  parent: Record<string, unknown>;
  context: FieldContext;
}

export function SpecialOption({ fieldKey, value, path, parent, context }: SpecialOptionProps) {
  const { t } = useTranslation();
  const { state } = useDesignerContext();
  const [params] = useSearchParams();
  const schemaCode = params.get('schemaCode') ?? '';
  const location = state.selectedUid ? locateControl(state.controls, state.selectedUid) : undefined;
  const table = location?.container.subTable?.code;
  const sourceCode = fieldKey === 'associationFilter' && typeof parent.schemaCode === 'string' ? parent.schemaCode : null;
  const source = usePublishedSchema(sourceCode);
  const id = fieldId(context, path);
  if (fieldKey === 'dataLink') return <DataLinkEditor id={id} value={value} onChange={(next) => context.onChange(path, next)} table={table} errors={errorsAt(context, path)} />;
  const label = fieldKey === 'defaultFormula' ? t('dependentFields.defaultFormula') : optionLabel(t, fieldKey);
  const hint = t(`dependentFields.hints.${fieldKey as 'expression'}`);
  const fields = sourceCode ? [...schemaFormulaFields(source.data), ...thisFormFields(state.controls)] : draftFormulaFields(state.controls);
  const bindType = fieldKey === 'expression' && typeof parent.bindType === 'string' ? (parent.bindType as 'decimal') : undefined;
  // A data range is checked against the associated form by the server when the list is asked for; here its syntax.
  const validateWith = sourceCode || !schemaCode ? undefined : { schemaCode, ...(table ? { table } : {}), ...(bindType ? { bindType } : {}) };
  return (
    <FieldRow label={label} htmlFor={id} errors={errorsAt(context, path)} extra={hint}>
      <FormulaEditor id={id} ariaLabel={label} value={typeof value === 'string' ? value : ''} onChange={(next) => context.onChange(path, next)} fields={fields} validateWith={validateWith} />
    </FieldRow>
  );
}
