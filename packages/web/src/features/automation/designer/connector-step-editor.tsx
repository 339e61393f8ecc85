import { Alert, Button, Flex, Form, Input, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { connectorKeys, connectorsApi } from '../../connectors/connectors-api.ts';
import type { SourceFields } from '../../rule-values/source-fields.ts';
import type { StepOf } from './draft.ts';

type ConnectorStep = StepOf<'connector'>;
const PLACE = '{{Code}}';

/**
 * The connector step (docs/decisions/0120): which connector runs, parameters filled from the trigger record's fields
 * by `{{Code}}` places, and outputs written back to fields of the record.
 */
export function ConnectorStepEditor({ step, onChange, fields }: { step: ConnectorStep; onChange: (step: ConnectorStep) => void; fields: SourceFields }) {
  const { t } = useTranslation();
  const choices = useQuery({ queryKey: connectorKeys.choices, queryFn: connectorsApi.choices });
  const set = (patch: Partial<ConnectorStep>) => onChange({ ...step, ...patch });
  const params = step.params ?? [];
  const outputs = step.outputMappings ?? [];
  const items = choices.data?.items ?? [];
  const chosen = items.find((c) => c.code === step.connectorCode);
  return (
    <Form layout="vertical" component={false}>
      <Form.Item label={t('automation.step.connector')} htmlFor={`${step.id}-connector`} extra={t('automation.step.connectorHelp', { place: PLACE })} style={{ marginBottom: 12 }}>
        <Select id={`${step.id}-connector`} showSearch optionFilterProp="label" loading={choices.isLoading} placeholder={t('automation.step.connectorPlaceholder')}
          value={step.connectorCode || undefined} options={items.map((c) => ({ value: c.code, label: `${c.connectionName} / ${c.name}` }))}
          onChange={(connectorCode: string) => set({ connectorCode, outputMappings: [] })} />
      </Form.Item>
      {choices.isSuccess && items.length === 0 && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('automation.step.noConnectors')} />}
      <Form.Item label={t('automation.step.connectorParams')} style={{ marginBottom: 12 }}>
        <Flex vertical gap="small">
          {params.map((p, i) => (
            <Space.Compact key={i} style={{ width: '100%' }}>
              <Input aria-label={t('automation.step.connectorParamName')} placeholder={t('automation.step.connectorParamName')} value={p.name} style={{ width: '40%' }}
                onChange={(e) => set({ params: params.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })} />
              <Input aria-label={t('automation.step.connectorParamValue', { place: PLACE })} placeholder={t('automation.step.connectorParamValue', { place: PLACE })} value={p.value}
                onChange={(e) => set({ params: params.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)) })} />
              <Button icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => set({ params: params.filter((_, j) => j !== i) })} />
            </Space.Compact>
          ))}
          <Button size="small" icon={<PlusOutlined />} style={{ alignSelf: 'flex-start' }} onClick={() => set({ params: [...params, { name: '', value: '' }] })}>
            {t('automation.step.addConnectorParam')}
          </Button>
        </Flex>
      </Form.Item>
      {chosen && (
        <Form.Item label={t('automation.step.connectorOutputs')} style={{ marginBottom: 12 }}>
          <Flex vertical gap="small">
            {outputs.map((m, i) => (
              <Space.Compact key={i} style={{ width: '100%' }}>
                <Select aria-label={t('businessRules.targetField')} showSearch optionFilterProp="label" value={m.field || undefined} style={{ width: '50%' }}
                  options={fields.main.map((f) => ({ value: f.code, label: f.name }))} onChange={(field: string) => set({ outputMappings: outputs.map((x, j) => (j === i ? { ...x, field } : x)) })} />
                <Select aria-label={t('automation.step.connectorOutput')} value={m.output || undefined} style={{ width: '50%' }}
                  options={chosen.outputs.map((o) => ({ value: o, label: o }))} onChange={(output: string) => set({ outputMappings: outputs.map((x, j) => (j === i ? { ...x, output } : x)) })} />
                <Button icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => set({ outputMappings: outputs.filter((_, j) => j !== i) })} />
              </Space.Compact>
            ))}
            {chosen.outputs.length > 0 ? (
              <Button size="small" icon={<PlusOutlined />} style={{ alignSelf: 'flex-start' }}
                onClick={() => set({ outputMappings: [...outputs, { field: fields.main[0]?.code ?? '', output: chosen.outputs[0] ?? '' }] })}>
                {t('automation.step.addResponseMapping')}
              </Button>
            ) : (
              <Typography.Text type="secondary">{t('connectors.designer.noOutputs')}</Typography.Text>
            )}
          </Flex>
        </Form.Item>
      )}
    </Form>
  );
}
