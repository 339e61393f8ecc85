import { useState } from 'react';
import { Form, Input, Radio, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ROLLUP_TYPES } from '@tritium/shared/constants/formats';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { FormPicker } from '../options/form-picker.tsx';
import { allControls, type DesignerControl } from '../state/control-tree.ts';
import { businessRuleKeys, businessRulesApi } from './business-rules-api.ts';

/** The rollup's settings that the generic options panel does not draw (docs/decisions/0015). */
export const ROLLUP_PANEL_KEYS = ['rollupType', 'sourceSchemaCode', 'sourceCode', 'sourceField', 'filter'];

const ASSOCIATIONS = new Set(['associationQuery', 'associationQueryMulti']);

/**
 * 汇总: what is rolled up — a sub-table of this form, or the records of another form that associate to this one —
 * which field, how, and which rows (a condition).
 */
export function RollupSourcePanel({ control, onChange }: { control: DesignerControl; onChange: (options: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const { state } = useDesignerContext();
  const o = control.options;
  const other = typeof o.sourceSchemaCode === 'string' && o.sourceSchemaCode ? o.sourceSchemaCode : null;
  const [mode, setModeState] = useState<'grid' | 'form'>(other ? 'form' : 'grid');
  const setMode = (m: 'grid' | 'form') => {
    setModeState(m);
    onChange({ ...o, sourceSchemaCode: null, sourceCode: null, sourceField: null });
  };
  const source = useQuery({ queryKey: businessRuleKeys.fields(other ?? ''), queryFn: () => businessRulesApi.fields(other!), enabled: !!other });
  const grids = allControls(state.controls).filter((c) => c.type === 'gridView');
  const grid = grids.find((g) => g.code === o.sourceCode);
  const set = (patch: Record<string, unknown>) => onChange({ ...o, ...patch });
  const clean = o;
  const links = (source.data?.fields ?? []).filter((f) => ASSOCIATIONS.has(f.typeKey));
  const fieldOptions =
    mode === 'grid'
      ? (grid?.controls ?? []).map((c) => ({ value: c.code, label: String(c.options.displayName ?? c.code) }))
      : (source.data?.fields ?? []).filter((f) => !f.isSystem).map((f) => ({ value: f.code, label: f.displayName }));
  const id = (key: string) => `rollup-${control.uid}-${key}`;
  return (
    <>
      <Form.Item label={t('businessRules.rollup.source')}>
        <Radio.Group
          value={mode}
          onChange={(e) => setMode(e.target.value as 'grid' | 'form')}
          options={[{ value: 'grid', label: t('businessRules.rollup.grid') }, { value: 'form', label: t('businessRules.rollup.form') }]}
        />
      </Form.Item>
      {mode === 'grid' ? (
        <Form.Item label={t('businessRules.rollup.subTable')} htmlFor={id('grid')}>
          <Select id={id('grid')} value={o.sourceCode ?? undefined} options={grids.map((g) => ({ value: g.code, label: String(g.options.displayName ?? g.code) }))}
            onChange={(sourceCode) => onChange({ ...clean, sourceSchemaCode: null, sourceCode, sourceField: null })} />
        </Form.Item>
      ) : (
        <>
          <Form.Item label={t('businessRules.rollup.otherForm')} htmlFor={id('form')}>
            <FormPicker id={id('form')} value={other} onChange={(code) => onChange({ ...clean, sourceSchemaCode: code, sourceCode: null, sourceField: null })} />
          </Form.Item>
          <Form.Item label={t('businessRules.rollup.link')} htmlFor={id('link')} extra={other && !links.length ? t('businessRules.rollup.noLink') : undefined}>
            <Select id={id('link')} value={o.sourceCode ?? undefined} options={links.map((f) => ({ value: f.code, label: f.displayName }))} onChange={(sourceCode) => set({ sourceCode })} />
          </Form.Item>
        </>
      )}
      <Form.Item label={t('businessRules.rollup.type')} htmlFor={id('type')}>
        <Select id={id('type')} value={o.rollupType ?? 'sum'} options={ROLLUP_TYPES.map((v) => ({ value: v, label: t(`businessRules.rollup.types.${v}`) }))} onChange={(rollupType) => set({ rollupType })} />
      </Form.Item>
      <Form.Item label={t('businessRules.rollup.field')} htmlFor={id('field')}>
        <Select id={id('field')} allowClear value={o.sourceField ?? undefined} options={fieldOptions} onChange={(sourceField) => set({ sourceField: sourceField ?? null })} />
      </Form.Item>
      <Form.Item label={t('businessRules.rollup.filter')} htmlFor={id('filter')} extra={t('businessRules.rollup.filterHint')}>
        <Input id={id('filter')} value={String(o.filter ?? '')} placeholder={mode === 'grid' && grid ? `{${grid.code}.Qty}>0` : '{Amount}>100'} onChange={(e) => set({ filter: e.target.value })} />
      </Form.Item>
    </>
  );
}
