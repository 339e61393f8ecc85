import { Flex, Form, Input, Modal, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { BUSINESS_RULE_ACTIONS, BUSINESS_RULE_TRIGGERS, type BusinessRuleInput } from '@tritium/shared/business-rules/index';
import { FormPicker } from '../options/form-picker.tsx';
import { MappingRows, MatchRows, useTargetFieldOptions } from '../../rule-values/mapping-rows.tsx';
import type { SourceFields } from '../../rule-values/source-fields.ts';

type Rule = BusinessRuleInput & { conditions: NonNullable<BusinessRuleInput['conditions']>; mappings: NonNullable<BusinessRuleInput['mappings']> };

interface RuleEditorProps {
  rule: Rule | null;
  fields: SourceFields;
  onCancel: () => void;
  onOk: (rule: Rule) => void;
  onChange: (rule: Rule) => void;
}

/** One rule: when, what, which form; per-row; match conditions and field mappings. */
export function RuleEditor({ rule, fields, onCancel, onOk, onChange }: RuleEditorProps) {
  const { t } = useTranslation();
  const fieldOptions = useTargetFieldOptions(rule?.targetSchemaCode ?? '');
  if (!rule) return null;
  const set = (patch: Partial<Rule>) => onChange({ ...rule, ...patch });
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
          <MatchRows conditions={rule.conditions} onChange={(conditions) => set({ conditions })} targetOptions={fieldOptions} fields={fields} row={rule.forEachRow ?? null} />
        )}
        {needsMappings && (
          <MappingRows mappings={rule.mappings} onChange={(mappings) => set({ mappings })} targetOptions={fieldOptions} fields={fields} row={rule.forEachRow ?? null} isSetOnly={rule.action === 'insert'} />
        )}
      </Form>
    </Modal>
  );
}

export type { Rule };
