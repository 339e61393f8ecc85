/** The inputs at the leaves of an options schema: text, number, switch and choice. */
import { Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { valueLabel } from '../labels.ts';
import type { FieldType } from './schema-fields.ts';

export type LeafType = Extract<FieldType, { kind: 'string' | 'number' | 'boolean' | 'choice' }>;

export interface LeafInputProps {
  id?: string;
  type: LeafType;
  value: unknown;
  /** What an emptied field becomes: null when the schema allows it, otherwise undefined (the default applies). */
  nullable: boolean;
  onChange: (value: unknown) => void;
  ariaLabel?: string;
  hasError?: boolean;
  /** Choices known only at run time (a list's default value offers the list's items). */
  choices?: string[];
  multiple?: boolean;
  /** What an empty field stands for (a default the schema derives). */
  placeholder?: string;
}

// Longer texts (a description, a tip) get several lines.
const MULTILINE_FROM = 500;

export const isLeaf = (type: FieldType): type is LeafType => ['string', 'number', 'boolean', 'choice'].includes(type.kind);

export function LeafInput({ id, type, value, nullable, onChange, ariaLabel, hasError, choices, multiple, placeholder }: LeafInputProps) {
  const { t } = useTranslation();
  const status = hasError ? 'error' : undefined;
  const empty = nullable ? null : undefined;
  if (choices || type.kind === 'choice') {
    const values = choices ?? (type.kind === 'choice' ? type.values : []);
    return (
      <Select
        id={id}
        aria-label={ariaLabel}
        status={status}
        mode={multiple ? 'multiple' : undefined}
        allowClear={nullable || multiple}
        placeholder={choices ? t('formDesigner.properties.chooseItem') : undefined}
        value={(value ?? undefined) as string | number | string[] | undefined}
        onChange={(next) => onChange(next === undefined ? (multiple ? [] : empty) : next)}
        options={values.map((v) => ({ value: v, label: valueLabel(t, v) }))}
        style={{ width: '100%' }}
      />
    );
  }
  if (type.kind === 'boolean') return <Switch id={id} aria-label={ariaLabel} checked={value === true} onChange={onChange} />;
  if (type.kind === 'number') {
    return (
      <InputNumber
        id={id}
        aria-label={ariaLabel}
        status={status}
        min={type.min}
        max={type.max}
        precision={type.integer ? 0 : undefined}
        placeholder={placeholder}
        value={typeof value === 'number' ? value : null}
        onChange={(next) => onChange(typeof next === 'number' ? next : empty)}
        style={{ width: '100%' }}
      />
    );
  }
  const text = typeof value === 'string' ? value : '';
  const change = (next: string) => onChange(next === '' && nullable ? null : next);
  if ((type.maxLength ?? 0) >= MULTILINE_FROM) {
    return <Input.TextArea id={id} aria-label={ariaLabel} status={status} value={text} autoSize={{ minRows: 2, maxRows: 6 }} maxLength={type.maxLength} onChange={(e) => change(e.target.value)} />;
  }
  return <Input id={id} aria-label={ariaLabel} status={status} value={text} maxLength={type.maxLength} onChange={(e) => change(e.target.value)} />;
}
