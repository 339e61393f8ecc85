import { Button, Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { ConditionRows } from '../../../components/filter-editor/condition-rows.tsx';
import type { Condition } from '../../../components/filter-editor/conditions.ts';
import type { ViewField } from '../api/list-view-api.ts';

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
