import { useState } from 'react';
import { Card, Flex, Typography } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FilterGroup } from '@tritium/shared/query/index';
import { ConditionRows } from '../../../components/filter-editor/condition-rows.tsx';
import { fromFilter, toFilter, type Condition } from '../../../components/filter-editor/conditions.ts';
import type { ViewField } from '../automation-api.ts';

interface ConditionCardProps {
  condition: FilterGroup | null;
  onChange: (condition: FilterGroup | null) => void;
  fields: ViewField[];
  /** Timed, webhook and connector triggers have no record to test. */
  isRecordless: boolean;
}

/** The flow's second card: the conditions the trigger record must meet (all of them), with the list views' rows. */
export function ConditionCard({ condition, onChange, fields, isRecordless }: ConditionCardProps) {
  const { t } = useTranslation();
  // Rows still lacking a value stay here; the model gets the complete ones (toFilter).
  const [rows, setRows] = useState<Condition[]>(() => fromFilter(condition ?? undefined));
  const update = (next: Condition[]) => {
    setRows(next);
    onChange((toFilter(next) as FilterGroup | undefined) ?? null);
  };
  return (
    <Card size="small" role="group" aria-label={t('automation.designer.conditions')} title={<><FilterOutlined /> {t('automation.designer.conditions')}</>}>
      {isRecordless ? (
        <Typography.Text type="secondary">{t('automation.designer.noConditions')}</Typography.Text>
      ) : (
        <Flex vertical gap="small">
          <Typography.Text type="secondary">{t('automation.designer.conditionsHint')}</Typography.Text>
          <ConditionRows fields={fields} conditions={rows} onChange={update} />
        </Flex>
      )}
    </Card>
  );
}
