import { Button, Flex, Form, Input, Select, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SourceFields } from '../../rule-values/source-fields.ts';
import type { StepOf } from './draft.ts';
import { TemplateInput } from './template-input.tsx';
import type { StepSources } from './use-step-sources.ts';

type HttpStep = StepOf<'http'>;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** An HTTP request: method and URL, headers, a body template, and fields of the trigger record set from the JSON answer. */
export function HttpStepEditor({ step, onChange, fields, sources }: { step: HttpStep; onChange: (step: HttpStep) => void; fields: SourceFields; sources: StepSources }) {
  const { t } = useTranslation();
  const set = (patch: Partial<HttpStep>) => onChange({ ...step, ...patch });
  const headers = step.headers ?? [];
  const responses = step.responseMappings ?? [];
  return (
    <Form layout="vertical" component={false}>
      <Form.Item label={t('automation.step.url')} htmlFor={`${step.id}-url`} style={{ marginBottom: 12 }}>
        <Flex gap="small" align="flex-start">
          <Select aria-label={t('automation.step.method')} value={step.method ?? 'POST'} style={{ width: 100, flex: 'none' }} options={METHODS.map((m) => ({ value: m, label: m }))} onChange={(method) => set({ method })} />
          <div style={{ flex: 1, minWidth: 0 }}>
            <TemplateInput id={`${step.id}-url`} label={t('automation.step.url')} value={step.url} maxLength={2000} sources={sources.placeholders} onChange={(url) => set({ url })} />
          </div>
        </Flex>
      </Form.Item>
      <Form.Item label={t('automation.step.headers')} style={{ marginBottom: 12 }}>
        <Flex vertical gap="small">
          {headers.map((h, i) => (
            <Space.Compact key={i} style={{ width: '100%' }}>
              <Input aria-label={t('automation.step.headerName')} placeholder={t('automation.step.headerName')} value={h.name} style={{ width: '40%' }}
                onChange={(e) => set({ headers: headers.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })} />
              <Input aria-label={t('automation.step.headerValue')} placeholder={t('automation.step.headerValue')} value={h.value}
                onChange={(e) => set({ headers: headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)) })} />
              <Button icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => set({ headers: headers.filter((_, j) => j !== i) })} />
            </Space.Compact>
          ))}
          <Button size="small" icon={<PlusOutlined />} style={{ alignSelf: 'flex-start' }} onClick={() => set({ headers: [...headers, { name: '', value: '' }] })}>
            {t('automation.step.addHeader')}
          </Button>
        </Flex>
      </Form.Item>
      {step.method !== 'GET' && (
        <Form.Item label={t('automation.step.body')} htmlFor={`${step.id}-body`} style={{ marginBottom: 12 }}>
          <TemplateInput id={`${step.id}-body`} label={t('automation.step.body')} value={step.body ?? ''} rows={4} maxLength={20000} sources={sources.placeholders} onChange={(body) => set({ body })} />
        </Form.Item>
      )}
      <Form.Item label={t('automation.step.responseMappings')} style={{ marginBottom: 12 }}>
        <Flex vertical gap="small">
          {responses.map((m, i) => (
            <Space.Compact key={i} style={{ width: '100%' }}>
              <Select aria-label={t('businessRules.targetField')} showSearch value={m.field || undefined} style={{ width: '45%' }}
                options={fields.main.map((f) => ({ value: f.code, label: f.name }))} onChange={(field) => set({ responseMappings: responses.map((x, j) => (j === i ? { ...x, field } : x)) })} />
              <Input aria-label={t('automation.step.responsePath')} placeholder={t('automation.step.responsePath')} value={m.path}
                onChange={(e) => set({ responseMappings: responses.map((x, j) => (j === i ? { ...x, path: e.target.value } : x)) })} />
              <Button icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => set({ responseMappings: responses.filter((_, j) => j !== i) })} />
            </Space.Compact>
          ))}
          <Button size="small" icon={<PlusOutlined />} style={{ alignSelf: 'flex-start' }} onClick={() => set({ responseMappings: [...responses, { field: fields.main[0]?.code ?? '', path: '' }] })}>
            {t('automation.step.addResponseMapping')}
          </Button>
        </Flex>
      </Form.Item>
    </Form>
  );
}
