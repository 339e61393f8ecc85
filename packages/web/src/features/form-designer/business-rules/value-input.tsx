import { Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RuleValue } from '@tritium/shared/business-rules/index';
import type { SourceFields } from './source-fields.ts';

/** Where a value comes from: a field of this record (a row's column in a per-row rule), a formula, or a constant. */
export function ValueInput({ value, onChange, fields, row, label }: { value: RuleValue; onChange: (v: RuleValue) => void; fields: SourceFields; row: string | null; label: string }) {
  const { t } = useTranslation();
  const grid = fields.grids.find((g) => g.code === row);
  const options = [
    ...fields.main.map((f) => ({ value: f.code, label: f.name })),
    ...(grid ? grid.columns.map((c) => ({ value: `${grid.code}.${c.code}`, label: `${grid.name}.${c.name}` })) : []),
  ];
  const kind = (
    <Select
      aria-label={t('businessRules.valueKind', { name: label })}
      value={value.type}
      style={{ width: 96 }}
      options={(['field', 'formula', 'constant'] as const).map((k) => ({ value: k, label: t(`businessRules.kind.${k}`) }))}
      onChange={(type) => onChange(type === 'field' ? { type, code: options[0]?.value ?? 'ObjectId' } : type === 'formula' ? { type, expression: '' } : { type: 'constant', value: '' })}
    />
  );
  return (
    <Space.Compact style={{ width: '100%' }}>
      {kind}
      {value.type === 'field' && (
        <Select aria-label={label} showSearch value={value.code} options={options} style={{ flex: 1 }} onChange={(code) => onChange({ type: 'field', code })} />
      )}
      {value.type === 'formula' && (
        <Input aria-label={label} value={value.expression} placeholder="{Qty}*{Price}" onChange={(e) => onChange({ type: 'formula', expression: e.target.value })} />
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
