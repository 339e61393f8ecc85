import { Button, Checkbox, Flex, Select, Typography, theme } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { FormPicker } from '../../form-designer/options/form-picker.tsx';
import { businessRuleKeys, businessRulesApi } from '../../form-designer/business-rules/business-rules-api.ts';
import { useDesignContext } from '../model/design-context.ts';
import type { Activity } from '../model/template-model.ts';

type ChildActivity = Extract<Activity, { type: 'ChildInstance' }>;
const WORKFLOW_FORMS = [FunctionNodeType.WorkflowModule];

/**
 * A child flow node (子流程, docs/decisions/0024): the workflow form whose flow it starts, whether the parent waits for
 * it, whether the child's start node is submitted at once, and which of this form's fields fill the child's.
 */
export function ChildFlowSettings({ activity, onChange }: { activity: ChildActivity; onChange: (patch: Partial<ChildActivity>) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { fields, schemaCode } = useDesignContext();
  const code = activity.childSchemaCode ?? '';
  const child = useQuery({ queryKey: businessRuleKeys.fields(code), queryFn: () => businessRulesApi.fields(code), enabled: !!code });
  const childFields = (child.data?.fields ?? []).filter((f) => !f.isSystem);
  const maps = activity.dataMaps;
  const setMaps = (dataMaps: ChildActivity['dataMaps']) => onChange({ dataMaps });
  const typeOf = (from: string) => fields.find((f) => f.code === from)?.typeKey;
  return (
    <Flex vertical gap={token.paddingXS}>
      <Typography.Text type="secondary">{t('workflowDesigner.child.form')}</Typography.Text>
      <FormPicker
        id={`child-form-${activity.code}`}
        types={WORKFLOW_FORMS}
        value={code}
        onChange={(next) => onChange({ childSchemaCode: next && next !== schemaCode ? next : undefined, dataMaps: [] })}
      />
      <Checkbox checked={activity.wait} onChange={(e) => onChange({ wait: e.target.checked })}>
        {t('workflowDesigner.child.wait')}
      </Checkbox>
      <Checkbox checked={activity.finishStart} onChange={(e) => onChange({ finishStart: e.target.checked })}>
        {t('workflowDesigner.child.finishStart')}
      </Checkbox>
      <Typography.Text type="secondary">{t('workflowDesigner.child.maps')}</Typography.Text>
      {maps.map((map, i) => (
        <Flex key={i} gap={4} align="center" role="group" aria-label={t('workflowDesigner.child.map', { n: i + 1 })}>
          <Select
            size="small"
            style={{ flex: 1, minWidth: 0 }}
            aria-label={t('workflowDesigner.child.from')}
            value={map.from || undefined}
            placeholder={t('workflowDesigner.child.from')}
            options={fields.map((f) => ({ value: f.code, label: f.name }))}
            onChange={(from: string) => setMaps(maps.map((m, j) => (j === i ? { from, to: '' } : m)))}
          />
          <Typography.Text>→</Typography.Text>
          <Select
            size="small"
            style={{ flex: 1, minWidth: 0 }}
            aria-label={t('workflowDesigner.child.to')}
            value={map.to || undefined}
            placeholder={t('workflowDesigner.child.to')}
            // Only fields of the same kind take the value (the server checks the data types again on publish).
            options={childFields.filter((f) => !map.from || f.typeKey === typeOf(map.from)).map((f) => ({ value: f.code, label: f.displayName }))}
            onChange={(to: string) => setMaps(maps.map((m, j) => (j === i ? { ...m, to } : m)))}
          />
          <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('workflowDesigner.child.removeMap')} onClick={() => setMaps(maps.filter((_, j) => j !== i))} />
        </Flex>
      ))}
      <Button size="small" icon={<PlusOutlined />} disabled={!code || maps.length >= 50} onClick={() => setMaps([...maps, { from: '', to: '' }])} style={{ alignSelf: 'flex-start' }}>
        {t('workflowDesigner.child.addMap')}
      </Button>
    </Flex>
  );
}
