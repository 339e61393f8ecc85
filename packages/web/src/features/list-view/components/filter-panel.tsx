import { Button, Empty, Flex, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FilterOperator } from '@tritium/shared/constants/formats';
import type { ViewField } from '../api/list-view-api.ts';
import type { Condition } from '../model/conditions.ts';
import { ValueInput } from './value-input.tsx';

/**
 * Condition rows (all must hold) on the given fields, each with the operators of its type and a value input by type:
 * the filter panel's, and the view designer's fixed filter (docs/decisions/0023).
 */
export function ConditionRows({ fields, conditions, onChange }: { fields: ViewField[]; conditions: Condition[]; onChange: (next: Condition[]) => void }) {
  const { t } = useTranslation();
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const set = (i: number, patch: Partial<Condition>) => onChange(conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const add = () => {
    const field = fields.find((f) => f.operators.length > 0);
    if (field) onChange([...conditions, { field: field.code, operator: field.operators[0] as FilterOperator }]);
  };
  return (
    <>
      {conditions.map((c, i) => {
        const field = byCode.get(c.field);
        if (!field) return null;
        return (
          <Flex key={i} gap="small" align="center" wrap>
            <Select
              aria-label={t('listView.filter.field', { index: i + 1 })}
              value={c.field}
              style={{ width: 140, flex: 'none' }}
              options={fields.filter((f) => f.operators.length > 0).map((f) => ({ value: f.code, label: f.title }))}
              onChange={(code: string) => set(i, { field: code, operator: byCode.get(code)!.operators[0] as FilterOperator, value: undefined })}
            />
            <Select
              aria-label={t('listView.filter.operator', { index: i + 1 })}
              value={c.operator}
              style={{ width: 110, flex: 'none' }}
              options={field.operators.map((o) => ({ value: o, label: t(`listView.operators.${o as FilterOperator}`) }))}
              onChange={(operator: FilterOperator) => set(i, { operator, value: undefined })}
            />
            {/* On a phone the value goes under field and operator rather than shrinking to nothing. */}
            <div style={{ flex: 1, minWidth: 160 }}>
              <ValueInput field={field} operator={c.operator} value={c.value} onChange={(value) => set(i, { value })} label={t('listView.filter.value', { index: i + 1 })} />
            </div>
            <Button type="text" icon={<DeleteOutlined />} aria-label={t('listView.filter.remove', { index: i + 1 })} onClick={() => onChange(conditions.filter((_, j) => j !== i))} />
          </Flex>
        );
      })}
      {fields.length === 0 ? (
        <Typography.Text type="secondary">{t('listView.filter.noFields')}</Typography.Text>
      ) : (
        <Button type="dashed" icon={<PlusOutlined />} onClick={add}>
          {t('listView.filter.add')}
        </Button>
      )}
    </>
  );
}

/** The filter panel: conditions (all must hold) on the fields the view offers, each with the operators of its type. */
export function FilterPanel({ fields, conditions, onChange, onApply, onClear }: {
  fields: ViewField[];
  conditions: Condition[];
  onChange: (next: Condition[]) => void;
  onApply: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="small" style={{ width: 560, maxWidth: '80vw' }} role="group" aria-label={t('listView.filter.title')}>
      {conditions.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('listView.filter.none')} />}
      <ConditionRows fields={fields} conditions={conditions} onChange={onChange} />
      <Flex justify="flex-end" gap="small">
        <Button onClick={onClear}>{t('listView.filter.clear')}</Button>
        <Button type="primary" onClick={onApply}>
          {t('listView.filter.apply')}
        </Button>
      </Flex>
    </Flex>
  );
}
