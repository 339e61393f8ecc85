import { Button, Flex, Input, Radio, Typography, theme } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SUBMIT_RULE_ACTIONS, SUBMIT_RULES_MAX, type SubmitRule } from '@tritium/shared/formula/index';
import { FormulaEditor } from '../../formula/formula-editor.tsx';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { draftFormulaFields } from './designer-fields.ts';

// 提交校验 (docs/decisions/0016): conditions over the record; while one holds, Submit is refused with its message or
// its button is hidden. The server checks them again on Submit.

export function SubmitRulesPanel({ errors }: { errors: Map<string, string[]> }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { state, dispatch } = useDesignerContext();
  const [params] = useSearchParams();
  const schemaCode = params.get('schemaCode') ?? '';
  const rules = (state.attributes.submitRules ?? []) as SubmitRule[];
  const fields = draftFormulaFields(state.controls);
  const set = (submitRules: SubmitRule[]) => dispatch({ type: 'setAttributes', patch: { submitRules } });
  const change = (index: number, patch: Partial<SubmitRule>) => set(rules.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  return (
    <section aria-label={t('dependentFields.submitRules.title')} style={{ marginBottom: token.marginSM }}>
      <Typography.Text strong>{t('dependentFields.submitRules.title')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: token.fontSizeSM, marginBottom: token.marginXS }}>
        {t('dependentFields.submitRules.hint')}
      </Typography.Paragraph>
      {rules.map((rule, index) => (
        <Flex key={index} vertical gap={token.paddingXXS} style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, padding: token.paddingXS, marginBottom: token.marginXS }}>
          <Flex justify="space-between" align="center">
            <Typography.Text type="secondary">{t('dependentFields.submitRules.rule', { index: index + 1 })}</Typography.Text>
            <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('dependentFields.submitRules.remove', { index: index + 1 })} onClick={() => set(rules.filter((_, i) => i !== index))} />
          </Flex>
          <FormulaEditor ariaLabel={t('dependentFields.submitRules.condition', { index: index + 1 })} value={rule.condition} onChange={(condition) => change(index, { condition })} fields={fields} validateWith={schemaCode ? { schemaCode } : undefined} placeholder={t('dependentFields.submitRules.conditionPlaceholder')} />
          <Radio.Group
            size="small"
            optionType="button"
            value={rule.action}
            onChange={(e) => change(index, { action: e.target.value })}
            options={SUBMIT_RULE_ACTIONS.map((action) => ({ value: action, label: t(`dependentFields.submitRules.actions.${action}`) }))}
          />
          {rule.action === 'error' && (
            <Input aria-label={t('dependentFields.submitRules.message', { index: index + 1 })} placeholder={t('dependentFields.submitRules.message', { index: index + 1 })} value={rule.message} maxLength={200} onChange={(e) => change(index, { message: e.target.value })} />
          )}
          {errors.get(`submitRules.${index}.condition`)?.map((message) => (
            <Typography.Text key={message} type="danger">{message}</Typography.Text>
          ))}
        </Flex>
      ))}
      <Button size="small" icon={<PlusOutlined />} disabled={rules.length >= SUBMIT_RULES_MAX} onClick={() => set([...rules, { condition: '', action: 'error', message: '' }])}>
        {t('dependentFields.submitRules.add')}
      </Button>
    </section>
  );
}
