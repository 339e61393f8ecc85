import { Button, Flex, Select, Switch, Typography, theme } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DataLink } from '@tritium/shared/controls/options/base';
import { usePublishedSchema } from '../../formula/formula-api.ts';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { FormPicker } from '../options/form-picker.tsx';
import { draftFormulaFields } from './designer-fields.ts';

// 数据联动 (docs/decisions/0016): the other form, conditions "this form's field = its field", and the field taken from
// the first matching record. Off = null.

interface DataLinkEditorProps {
  id: string;
  value: unknown;
  onChange: (value: DataLink | null) => void;
  /** The sub-table the control sits in: its columns (and the main fields) may be conditions. */
  table?: string;
  errors?: string[];
}

const EMPTY: DataLink = { schemaCode: '', conditions: [{ field: '', sourceField: '' }], resultField: '' };

export function DataLinkEditor({ id, value, onChange, table, errors }: DataLinkEditorProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { state } = useDesignerContext();
  const link = value && typeof value === 'object' ? (value as DataLink) : null;
  const source = usePublishedSchema(link?.schemaCode || null);
  const own = draftFormulaFields(state.controls)
    .filter((f) => (table ? f.ref.startsWith(`${table}.`) || !f.ref.includes('.') : !f.ref.includes('.')))
    .map((f) => ({ value: f.ref.replace(`${table}.`, ''), label: `${f.label}（${f.ref}）` }));
  const theirs = (source.data?.properties ?? []).map((p) => ({ value: p.name, label: `${p.displayName}（${p.name}）` }));
  const set = (patch: Partial<DataLink>) => onChange({ ...(link ?? EMPTY), ...patch });
  const setCondition = (index: number, patch: Partial<DataLink['conditions'][number]>) =>
    set({ conditions: (link?.conditions ?? []).map((c, i) => (i === index ? { ...c, ...patch } : c)) });
  return (
    <fieldset style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, padding: `${token.paddingXS}px ${token.paddingSM}px`, margin: `0 0 ${token.marginSM}px` }}>
      <legend style={{ fontSize: token.fontSize, width: 'auto', margin: 0, padding: `0 ${token.paddingXXS}px`, border: 'none' }}>
        <Flex align="center" gap={token.paddingXS}>
          {t('dependentFields.dataLink.title')}
          <Switch size="small" aria-label={t('dependentFields.dataLink.enable')} checked={!!link} onChange={(on) => onChange(on ? EMPTY : null)} />
        </Flex>
      </legend>
      {errors && <Typography.Text type="danger">{errors.join('；')}</Typography.Text>}
      {link && (
        <Flex vertical gap={token.paddingXS}>
          <Typography.Text type="secondary">{t('dependentFields.dataLink.source')}</Typography.Text>
          <FormPicker id={`${id}-source`} value={link.schemaCode} onChange={(schemaCode) => set({ schemaCode: schemaCode ?? '', resultField: '', conditions: link.conditions.map((c) => ({ ...c, sourceField: '' })) })} />
          <Typography.Text type="secondary">{t('dependentFields.dataLink.conditions')}</Typography.Text>
          {link.conditions.map((condition, index) => (
            <Flex key={index} gap={4} align="center">
              <Select aria-label={t('dependentFields.dataLink.sourceField', { index: index + 1 })} style={{ flex: 1, minWidth: 0 }} value={condition.sourceField || undefined} options={theirs} onChange={(sourceField) => setCondition(index, { sourceField })} />
              <span>=</span>
              <Select aria-label={t('dependentFields.dataLink.thisField', { index: index + 1 })} style={{ flex: 1, minWidth: 0 }} value={condition.field || undefined} options={own} onChange={(field) => setCondition(index, { field })} />
              <Button size="small" type="text" icon={<DeleteOutlined />} aria-label={t('dependentFields.dataLink.removeCondition', { index: index + 1 })} disabled={link.conditions.length === 1} onClick={() => set({ conditions: link.conditions.filter((_, i) => i !== index) })} />
            </Flex>
          ))}
          <Button size="small" icon={<PlusOutlined />} onClick={() => set({ conditions: [...link.conditions, { field: '', sourceField: '' }] })}>
            {t('dependentFields.dataLink.addCondition')}
          </Button>
          <Typography.Text type="secondary">{t('dependentFields.dataLink.result')}</Typography.Text>
          <Select id={`${id}-result`} aria-label={t('dependentFields.dataLink.result')} value={link.resultField || undefined} options={theirs} onChange={(resultField) => set({ resultField })} />
        </Flex>
      )}
    </fieldset>
  );
}
