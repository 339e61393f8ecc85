import { useMemo } from 'react';
import { Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FORM_CONTAINER_MODES } from '@tritium/shared/constants/form';
import { FormAttributes } from '@tritium/shared/contracts/form-design/index';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { zodErrorMap } from '../labels.ts';
import { FieldRow } from '../options/option-field.tsx';
import { SubmitRulesPanel } from '../dependent-options/submit-rules-panel.tsx';
import { issuesByPath } from '../options/schema-fields.ts';
import { TreeStructureFields } from './tree-structure-fields.tsx';
import { FormToolsEntry } from '../maintenance/form-tools-entry.tsx';
import type { zhCN } from '../../../locales/zh-CN.ts';

type AttributeKey = keyof typeof zhCN.formDesigner.attributes & keyof FormAttributes;
const SWITCHES: readonly AttributeKey[] = ['enableFormSNS', 'enableTask', 'enableDataLog', 'enableDataAcl', 'pcVisible', 'mobileVisible'];
/** Switches whose effect needs a sentence (docs/decisions/0115). */
const HINTS: Partial<Record<AttributeKey, 'enableDataAclHint' | 'pcVisibleHint' | 'mobileVisibleHint'>> = { enableDataAcl: 'enableDataAclHint', pcVisible: 'pcVisibleHint', mobileVisible: 'mobileVisibleHint' };

/** 表单属性: the form attributes of the contract (domain.md §3) and how the form opens at run time. */
export function FormAttributesPanel() {
  const { t } = useTranslation();
  const { state, dispatch } = useDesignerContext();
  const attributes = state.attributes;
  const errors = useMemo(() => issuesByPath(FormAttributes, attributes, zodErrorMap()), [attributes]);
  const set = (patch: Partial<FormAttributes>) => dispatch({ type: 'setAttributes', patch });
  const id = (key: AttributeKey) => `form-${key}`;
  const row = (key: AttributeKey, input: React.ReactNode, extra?: string) => (
    <FieldRow key={key} label={t(`formDesigner.attributes.${key}`)} htmlFor={id(key)} errors={errors.get(key)} extra={extra}>
      {input}
    </FieldRow>
  );

  return (
    <Form layout="vertical" component={false}>
      {row('displayName', <Input id={id('displayName')} value={attributes.displayName} onChange={(e) => set({ displayName: e.target.value })} />)}
      {row('summary', <Input.TextArea id={id('summary')} value={attributes.summary} autoSize={{ minRows: 2, maxRows: 4 }} onChange={(e) => set({ summary: e.target.value })} />)}
      {row('nameSchema', <Input id={id('nameSchema')} value={attributes.nameSchema} onChange={(e) => set({ nameSchema: e.target.value })} />, t('formDesigner.attributes.nameSchemaHint'))}
      {SWITCHES.map((key) => row(key, <Switch id={id(key)} checked={attributes[key] === true} onChange={(on) => set({ [key]: on })} />, HINTS[key] && t(`formDesigner.attributes.${HINTS[key]}`)))}
      <TreeStructureFields errors={errors} />
      {row('titleWidth', <InputNumber id={id('titleWidth')} min={40} max={400} value={attributes.titleWidth} onChange={(v) => set({ titleWidth: v ?? 120 })} style={{ width: '100%' }} />)}
      {row(
        'containerMode',
        <Radio.Group
          id={id('containerMode')}
          optionType="button"
          value={attributes.containerMode}
          onChange={(e) => set({ containerMode: e.target.value })}
          options={FORM_CONTAINER_MODES.map((mode) => ({ value: mode, label: t(`formDesigner.attributes.containerModes.${mode}`) }))}
        />,
      )}
      {attributes.containerMode !== 'Specified' &&
        row('modalWidth', <InputNumber id={id('modalWidth')} min={320} max={2000} value={attributes.modalWidth} onChange={(v) => set({ modalWidth: v ?? undefined })} style={{ width: '100%' }} />)}
      {attributes.containerMode === 'Modal' &&
        row('modalHeight', <InputNumber id={id('modalHeight')} min={200} max={2000} value={attributes.modalHeight} onChange={(v) => set({ modalHeight: v ?? undefined })} style={{ width: '100%' }} />)}
      <SubmitRulesPanel errors={errors} />
      <FormToolsEntry />
    </Form>
  );
}
