import { Input, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { dynamicValuesFor } from '@tritium/shared/query/index';
import type { ControlDataType } from '@tritium/shared/controls/index';
import type { FilterOperator } from '@tritium/shared/constants/formats';
import type { contracts } from '@tritium/shared';

type ViewField = contracts.ViewField;

// A value for a field: for a filter condition (by its operator) or for a batch edit. Numbers take numbers, items
// take their items, dates take yyyy-mm-dd (the whole day, as the query engine reads it), lists take several values.

interface Props {
  field: ViewField;
  operator?: FilterOperator;
  value: unknown;
  onChange: (value: unknown) => void;
  label: string;
}

const isNumber = (f: ViewField) => f.dataType === 'decimal' || f.dataType === 'int';

function Single({ field, value, onChange, label }: Omit<Props, 'operator'>) {
  const { t } = useTranslation();
  if (isNumber(field)) return <InputNumber aria-label={label} value={typeof value === 'number' ? value : null} onChange={(v) => onChange(v ?? null)} style={{ width: '100%' }} />;
  if (field.items?.length) {
    return <Select aria-label={label} value={(value as string) ?? undefined} onChange={onChange} options={field.items.map((i) => ({ value: i, label: i }))} style={{ width: '100%' }} allowClear />;
  }
  if (field.dataType === 'bool') {
    return <Select aria-label={label} value={value as boolean | undefined} onChange={onChange} options={[{ value: true, label: t('listView.yes') }, { value: false, label: t('listView.no') }]} style={{ width: '100%' }} />;
  }
  const placeholder = field.dataType === 'datetime' ? 'yyyy-mm-dd' : undefined;
  return <Input aria-label={label} placeholder={placeholder} value={(value as string) ?? ''} onChange={(e) => onChange(e.target.value)} />;
}

export function FilterValueInput({ field, operator, value, onChange, label }: Props) {
  const { t } = useTranslation();
  if (operator === 'IsBlank' || operator === 'NotBlank') return null;
  if (operator === 'Between') {
    const [from, to] = Array.isArray(value) ? value : [null, null];
    return (
      <Space.Compact style={{ width: '100%' }}>
        <Single field={field} value={from} onChange={(v) => onChange([v ?? null, to ?? null])} label={`${label} ${t('listView.filter.from')}`} />
        <Single field={field} value={to} onChange={(v) => onChange([from ?? null, v ?? null])} label={`${label} ${t('listView.filter.to')}`} />
      </Space.Compact>
    );
  }
  if (operator === 'Dynamic') {
    const names = dynamicValuesFor(field.dataType as ControlDataType);
    return <Select aria-label={label} value={(value as string) ?? undefined} onChange={onChange} options={names.map((n) => ({ value: n, label: t(`listView.dynamic.${n}`) }))} style={{ width: '100%' }} />;
  }
  const many = operator === 'In' || operator === 'NotIn' || field.dataType.endsWith('s');
  if (many && operator) {
    const list = Array.isArray(value) ? value.map(String) : [];
    return (
      <Select aria-label={label} mode="tags" value={list} style={{ width: '100%' }} options={field.items?.map((i) => ({ value: i, label: i }))}
        onChange={(v: string[]) => onChange(isNumber(field) ? v.map(Number).filter((n) => !Number.isNaN(n)) : v)} />
    );
  }
  return <Single field={field} value={value} onChange={onChange} label={label} />;
}
