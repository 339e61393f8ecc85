import { useContext, useState } from 'react';
import { Alert, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FormAttributes } from '@tritium/shared/contracts/form-design/index';
import { TREE_FORM_LIMITS } from '@tritium/shared/constants/limits';
import { formDesignApi } from '../api/form-design-api.ts';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { controlName } from '../labels.ts';
import { FieldRow } from '../options/option-field.tsx';
import { DesignerAppContext } from '../options/form-picker.tsx';
import { allControls } from '../state/control-tree.ts';

// 树形显示 of the form attributes (domain.md §5 "Tree structure"; docs/decisions/0023): the switch and the parent
// control, an association query of this same form. Choosing the control asks the server whether the published rows
// fit (no cycle, at most 10 levels and 10,000 records); when they do not, tree display is turned off again and the
// spec's message is shown. Problems of the control itself are the draft's (incomplete, publish) and not asked here,
// since the control may not be saved yet.

const DATA_PROBLEMS = new Set(['tooManyRecords', 'tooDeep', 'cycle']);
type Checked = { state: 'checking' } | { state: 'ok'; records: number; levels: number } | { state: 'refused'; message: string };

export function TreeStructureFields({ errors }: { errors: Map<string, string[]> }) {
  const { t } = useTranslation();
  const { state, dispatch } = useDesignerContext();
  const schemaCode = useContext(DesignerAppContext)?.schemaCode ?? '';
  const attributes = state.attributes;
  const set = (patch: Partial<FormAttributes>) => dispatch({ type: 'setAttributes', patch });
  const [checked, setChecked] = useState<Checked | null>(null);
  // The parent of a tree record is an association query control of the form's own table pointing to this form.
  const candidates = allControls(state.controls).filter(
    (c) => c.type === 'associationQuery' && (!schemaCode || String(c.options.schemaCode ?? '').toLowerCase() === schemaCode.toLowerCase()),
  );

  const check = async (code: string) => {
    if (!schemaCode || !code) return setChecked(null);
    setChecked({ state: 'checking' });
    try {
      const result = await formDesignApi.checkTreeStructure(schemaCode, code);
      if (!result.valid && result.problem && DATA_PROBLEMS.has(result.problem)) {
        setChecked({ state: 'refused', message: result.message ?? '' });
        set({ isTreeStructure: false });
      } else setChecked({ state: 'ok', records: result.records, levels: result.levels });
    } catch {
      setChecked(null);
    }
  };

  return (
    <>
      <FieldRow label={t('formDesigner.attributes.isTreeStructure')} htmlFor="form-isTreeStructure" errors={errors.get('isTreeStructure')}
        extra={t('treeView.form.limits', { levels: TREE_FORM_LIMITS.maxLevels, records: TREE_FORM_LIMITS.maxRecords })}>
        <Switch id="form-isTreeStructure" checked={attributes.isTreeStructure}
          onChange={(on) => { set({ isTreeStructure: on }); if (on && attributes.treeStructureControlCode) void check(attributes.treeStructureControlCode); else setChecked(null); }} />
      </FieldRow>
      {attributes.isTreeStructure && (
        <FieldRow label={t('formDesigner.attributes.treeStructureControlCode')} htmlFor="form-treeStructureControlCode" errors={errors.get('treeStructureControlCode')}
          extra={candidates.length ? t('formDesigner.attributes.treeStructureHint') : t('treeView.form.noCandidates')}>
          <Select
            id="form-treeStructureControlCode"
            aria-label={t('formDesigner.attributes.treeStructureControlCode')}
            allowClear
            value={attributes.treeStructureControlCode || undefined}
            onChange={(code?: string) => { set({ treeStructureControlCode: code ?? '' }); void check(code ?? ''); }}
            options={candidates.map((control) => ({ value: control.code, label: `${controlName(control)}（${control.code}）` }))}
          />
        </FieldRow>
      )}
      {checked?.state === 'checking' && <Typography.Text type="secondary">{t('treeView.form.checking')}</Typography.Text>}
      {checked?.state === 'ok' && attributes.isTreeStructure && (
        <Alert type="success" showIcon style={{ marginBottom: 12 }} title={t('treeView.form.checked', { records: checked.records, levels: checked.levels })} />
      )}
      {checked?.state === 'refused' && <Alert role="alert" type="error" showIcon style={{ marginBottom: 12 }} title={t('treeView.form.refused')} description={checked.message} />}
    </>
  );
}
