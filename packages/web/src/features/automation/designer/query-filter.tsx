import { useState } from 'react';
import { Flex, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FilterGroup } from '@tritium/shared/query/index';
import { ConditionRows } from '../../../components/filter-editor/condition-rows.tsx';
import { fromFilter, toFilter, type Condition } from '../../../components/filter-editor/conditions.ts';
import { automationFormApi, automationKeys } from '../automation-api.ts';

/** A query step's fixed filter on its target form (besides the match conditions on the trigger's values): the list views' rows. */
export function QueryFilter({ targetSchemaCode, filter, onChange }: { targetSchemaCode: string; filter: FilterGroup | null; onChange: (filter: FilterGroup | null) => void }) {
  const { t } = useTranslation();
  const fields = useQuery({ queryKey: automationKeys.fields(targetSchemaCode), queryFn: () => automationFormApi.fields(targetSchemaCode), enabled: !!targetSchemaCode });
  // Rows still lacking a value stay here; the model gets the complete ones.
  const [rows, setRows] = useState<Condition[]>(() => fromFilter(filter ?? undefined));
  if (!targetSchemaCode) return null;
  return (
    <Flex vertical gap="small" style={{ marginBottom: 16 }} role="group" aria-label={t('automation.step.filter')}>
      <Typography.Text strong>{t('automation.step.filter')}</Typography.Text>
      <ConditionRows fields={fields.data?.fields ?? []} conditions={rows}
        onChange={(next) => { setRows(next); onChange((toFilter(next) as FilterGroup | undefined) ?? null); }} />
    </Flex>
  );
}
