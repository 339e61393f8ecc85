import { Button, Flex, Form, Input, Modal, Select, Switch, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BUSINESS_RULE_ACTIONS, BUSINESS_RULE_OPERATIONS, BUSINESS_RULE_TRIGGERS, type BusinessRuleInput, type RuleValue } from '@tritium/shared/business-rules/index';
import { FormPicker } from '../options/form-picker.tsx';
import { businessRuleKeys, businessRulesApi } from './business-rules-api.ts';
import type { SourceFields } from './source-fields.ts';
import { ValueInput } from './value-input.tsx';

type Rule = BusinessRuleInput & { conditions: NonNullable<BusinessRuleInput['conditions']>; mappings: NonNullable<BusinessRuleInput['mappings']> };

interface RuleEditorProps {
  rule: Rule | null;
  fields: SourceFields;
  onCancel: () => void;
  onOk: (rule: Rule) => void;
  onChange: (rule: Rule) => void;
}

const FIRST: RuleValue = { type: 'field', code: 'ObjectId' };

/** One rule: when, what, which form; per-row; match conditions and field mappings. */
export function RuleEditor({ rule, fields, onCancel, onOk, onChange }: RuleEditorProps) {
  const { t } = useTranslation();
  const target = rule?.targetSchemaCode ?? '';
  const targetFields = useQuery({ queryKey: businessRuleKeys.fields(target), queryFn: () => businessRulesApi.fields(target), enabled: !!target });
  if (!rule) return null;
  const set = (patch: Partial<Rule>) => onChange({ ...rule, ...patch });
  const fieldOptions = (targetFields.data?.fields ?? []).filter((f) => !f.isSystem || f.code === 'SeqNo').map((f) => ({ value: f.code, label: f.displayName }));
  const needsConditions = rule.action !== 'insert';
  const needsMappings = rule.action !== 'delete';
  return (
    <Modal open title={t('businessRules.editTitle')} width={760} onCancel={onCancel} onOk={() => onOk(rule)} okText={t('businessRules.ok')} cancelText={t('businessRules.cancel')} destroyOnHidden>
      <Form layout="vertical" component={false}>
        <Flex gap="middle">
          <Form.Item label={t('businessRules.name')} htmlFor="rule-name" style={{ flex: 1 }}>
            <Input id="rule-name" value={rule.name} maxLength={50} onChange={(e) => set({ name: e.target.value })} />
          </Form.Item>
          <Form.Item label={t('businessRules.enabled')}>
            <Switch checked={rule.enabled !== false} onChange={(enabled) => set({ enabled })} />
          </Form.Item>
        </Flex>
        <Flex gap="middle">
          <Form.Item label={t('businessRules.on')} htmlFor="rule-on" style={{ flex: 1 }}>
            <Select id="rule-on" value={rule.on} options={BUSINESS_RULE_TRIGGERS.map((v) => ({ value: v, label: t(`businessRules.trigger.${v}`) }))} onChange={(on) => set({ on })} />
          </Form.Item>
          <Form.Item label={t('businessRules.action')} htmlFor="rule-action" style={{ flex: 1 }}>
            <Select
              id="rule-action"
              value={rule.action}
              options={BUSINESS_RULE_ACTIONS.map((v) => ({ value: v, label: t(`businessRules.actions.${v}`) }))}
              onChange={(action) => set({ action, conditions: action === 'insert' ? [] : rule.conditions, mappings: action === 'delete' ? [] : rule.mappings })}
            />
          </Form.Item>
        </Flex>
        <Flex gap="middle">
          <Form.Item label={t('businessRules.target')} htmlFor="rule-target" style={{ flex: 1 }}>
            <FormPicker id="rule-target" value={rule.targetSchemaCode} onChange={(code) => set({ targetSchemaCode: code ?? '' })} />
          </Form.Item>
          <Form.Item label={t('businessRules.forEachRow')} htmlFor="rule-row" style={{ flex: 1 }}>
            <Select
              id="rule-row"
              allowClear
              placeholder={t('businessRules.once')}
              value={rule.forEachRow ?? undefined}
              options={fields.grids.map((g) => ({ value: g.code, label: g.name }))}
              onChange={(forEachRow) => set({ forEachRow: forEachRow ?? null })}
            />
          </Form.Item>
        </Flex>
        {needsConditions && (
          <Section title={t('businessRules.conditions')} onAdd={() => set({ conditions: [...rule.conditions, { field: fieldOptions[0]?.value ?? '', value: FIRST }] })} addLabel={t('businessRules.addCondition')}>
            {rule.conditions.map((c, i) => (
              <Flex key={i} gap="small" align="center">
                <Select aria-label={t('businessRules.targetField')} showSearch value={c.field || undefined} options={fieldOptions} style={{ width: 200 }}
                  onChange={(field) => set({ conditions: rule.conditions.map((x, j) => (j === i ? { ...x, field } : x)) })} />
                <Typography.Text>=</Typography.Text>
                <ValueInput label={t('businessRules.value')} value={c.value} fields={fields} row={rule.forEachRow ?? null} onChange={(value) => set({ conditions: rule.conditions.map((x, j) => (j === i ? { ...x, value } : x)) })} />
                <Button type="text" icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => set({ conditions: rule.conditions.filter((_, j) => j !== i) })} />
              </Flex>
            ))}
          </Section>
        )}
        {needsMappings && (
          <Section title={t('businessRules.mappings')} onAdd={() => set({ mappings: [...rule.mappings, { field: fieldOptions[0]?.value ?? '', op: 'set', value: FIRST }] })} addLabel={t('businessRules.addMapping')}>
            {rule.mappings.map((m, i) => (
              <Flex key={i} gap="small" align="center">
                <Select aria-label={t('businessRules.targetField')} showSearch value={m.field || undefined} options={fieldOptions} style={{ width: 180 }}
                  onChange={(field) => set({ mappings: rule.mappings.map((x, j) => (j === i ? { ...x, field } : x)) })} />
                <Select aria-label={t('businessRules.op')} value={m.op ?? 'set'} style={{ width: 96 }} disabled={rule.action === 'insert'}
                  options={BUSINESS_RULE_OPERATIONS.map((v) => ({ value: v, label: t(`businessRules.ops.${v}`) }))}
                  onChange={(op) => set({ mappings: rule.mappings.map((x, j) => (j === i ? { ...x, op } : x)) })} />
                <ValueInput label={t('businessRules.value')} value={m.value} fields={fields} row={rule.forEachRow ?? null} onChange={(value) => set({ mappings: rule.mappings.map((x, j) => (j === i ? { ...x, value } : x)) })} />
                <Button type="text" icon={<DeleteOutlined />} aria-label={t('businessRules.remove')} onClick={() => set({ mappings: rule.mappings.filter((_, j) => j !== i) })} />
              </Flex>
            ))}
          </Section>
        )}
      </Form>
    </Modal>
  );
}

function Section({ title, addLabel, onAdd, children }: { title: string; addLabel: string; onAdd: () => void; children: React.ReactNode }) {
  return (
    <Flex vertical gap="small" style={{ marginBottom: 16 }}>
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{title}</Typography.Text>
        <Button size="small" icon={<PlusOutlined />} onClick={onAdd}>
          {addLabel}
        </Button>
      </Flex>
      {children}
    </Flex>
  );
}

export type { Rule };
