import { Button, Flex, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import type { FilterOperator } from '@tritium/shared/constants/formats';
import type { Condition } from './conditions.ts';
import { FilterValueInput } from './filter-value-input.tsx';

type ViewField = contracts.ViewField;

/**
 * Condition rows (all must hold) on the given fields, each with the operators of its type and a value input by type:
 * the list view's filter panel and fixed filter (docs/decisions/0023), an automation's conditions (issue 21).
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
              <FilterValueInput field={field} operator={c.operator} value={c.value} onChange={(value) => set(i, { value })} label={t('listView.filter.value', { index: i + 1 })} />
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
