import { Flex, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RuleValue } from '@tritium/shared/business-rules/index';
import { FormulaEditor } from '../formula/formula-editor.tsx';
import type { SourceFields } from './source-fields.ts';

/** A value offered besides the record's fields (an automation loop's current record: `<stepId>.Code`). */
export interface ValueOption {
  value: string;
  label: string;
}

interface ValueInputProps {
  value: RuleValue;
  onChange: (v: RuleValue) => void;
  fields: SourceFields;
  /** A sub-table whose row's columns are offered (a per-row rule, a loop over a sub-table). */
  row: string | null;
  extra?: ValueOption[];
  label: string;
}

/** Where a value comes from: a field of this record (a row's column in a per-row rule), a formula, or a constant. */
export function ValueInput({ value, onChange, fields, row, extra = [], label }: ValueInputProps) {
  const { t } = useTranslation();
  const grid = fields.grids.find((g) => g.code === row);
  const options = [
    ...fields.main.map((f) => ({ value: f.code, label: f.name })),
    ...(grid ? grid.columns.map((c) => ({ value: `${grid.code}.${c.code}`, label: `${grid.name}.${c.name}` })) : []),
    ...extra,
  ];
  const kind = (
    <Select
      aria-label={t('businessRules.valueKind', { name: label })}
      value={value.type}
      style={{ width: 96, flex: 'none' }}
      options={(['field', 'formula', 'constant'] as const).map((k) => ({ value: k, label: t(`businessRules.kind.${k}`) }))}
      onChange={(type) => onChange(type === 'field' ? { type, code: options[0]?.value ?? 'ObjectId' } : type === 'formula' ? { type, expression: '' } : { type: 'constant', value: '' })}
    />
  );
  if (value.type === 'formula') {
    // The formula editor (docs/decisions/0016) completes the same fields the field choice offers.
    const refs = options.map((o) => ({ ref: o.value, label: o.label }));
    return (
      <Flex gap="small" align="flex-start" style={{ width: '100%' }}>
        {kind}
        <div style={{ flex: 1, minWidth: 0 }}>
          <FormulaEditor ariaLabel={label} value={value.expression} fields={refs} placeholder="{Qty}*{Price}" onChange={(expression) => onChange({ type: 'formula', expression })} />
        </div>
      </Flex>
    );
  }
  return (
    <Space.Compact style={{ width: '100%' }}>
      {kind}
      {value.type === 'field' && (
        <Select aria-label={label} showSearch optionFilterProp="label" value={value.code} options={options} style={{ flex: 1, minWidth: 0 }} onChange={(code) => onChange({ type: 'field', code })} />
      )}
      {value.type === 'constant' && (
        <Input
          aria-label={label}
          value={value.value === null ? '' : String(value.value)}
          onChange={(e) => {
            const text = e.target.value;
            onChange({ type: 'constant', value: text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text });
          }}
        />
      )}
    </Space.Compact>
  );
}
