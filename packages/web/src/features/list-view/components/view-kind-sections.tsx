import { useState } from 'react';
import { Alert, Card, Flex, Segmented, Select, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ViewMode } from '@tritium/shared/constants/views';
import { HIERARCHY_VIEW_LIMITS } from '@tritium/shared/constants/limits';
import type { ViewField, ViewSetting } from '../api/list-view-api.ts';
import { fromFilter, toFilter, type Condition } from '../../../components/filter-editor/conditions.ts';
import { ConditionRows } from '../../../components/filter-editor/condition-rows.tsx';
import { WEB_VIEW_MODES, type ModeKey } from '../modes/registry.tsx';
import { ModeSettingsPanel } from '../modes/settings-panel.tsx';

// Sections of the view designer added with the Hierarchy view (docs/decisions/0023): the view's mode with its parent
// field, and the view's fixed filter built from condition rows like the filter panel's.

interface SectionProps {
  schemaCode: string;
  view: ViewSetting;
  fields: ViewField[];
  onChange: (patch: Partial<ViewSetting>) => void;
}

/** Fields a hierarchy may follow: association queries of the main table pointing to this same form. */
export const parentFieldsOf = (fields: ViewField[], schemaCode: string) =>
  fields.filter((f) => f.controlType === 'associationQuery' && (f.targetSchemaCode ?? '').toLowerCase() === schemaCode.toLowerCase());

export function ViewModeSection({ schemaCode, view, fields, onChange, modesOff = [] }: SectionProps & { modesOff?: readonly number[] }) {
  const { t } = useTranslation();
  const parents = parentFieldsOf(fields, schemaCode);
  // Every mode of the registry (docs/decisions/0047); a new mode starts from empty settings.
  const setMode = (mode: number) => {
    const settings = mode === view.mode ? view.settings : undefined;
    if (mode === ViewMode.Hierarchy) onChange({ mode: ViewMode.Hierarchy, parentField: view.parentField ?? parents[0]?.code, settings });
    else onChange({ mode, parentField: undefined, settings });
  };
  return (
    <Flex vertical gap="small">
      <Flex gap="small" align="center" wrap>
        <Typography.Text>{t('treeView.designer.mode')}</Typography.Text>
        <Segmented aria-label={t('treeView.designer.mode')} value={view.mode} onChange={(v) => setMode(Number(v))}
          options={WEB_VIEW_MODES.map((m) => {
            const off = modesOff.includes(m.definition.mode) && view.mode !== m.definition.mode;
            const label = t(`viewModes.modes.${m.definition.key as ModeKey}`);
            return { value: m.definition.mode as number, icon: m.icon, disabled: off, label: off ? <Tooltip title={t('viewModes.switchedOff')}><span>{label}</span></Tooltip> : label };
          })} />
        {view.mode === ViewMode.Hierarchy && (
          <>
            <Typography.Text>{t('treeView.designer.parentField')}</Typography.Text>
            <Select aria-label={t('treeView.designer.parentField')} value={view.parentField} style={{ width: 200 }} status={view.parentField ? undefined : 'error'}
              placeholder={t('treeView.designer.parentFieldPlaceholder')} onChange={(parentField: string) => onChange({ parentField })}
              options={parents.map((f) => ({ value: f.code, label: f.title }))} />
          </>
        )}
      </Flex>
      <ModeSettingsPanel schemaCode={schemaCode} view={view} fields={fields} onChange={onChange} />
      {view.mode === ViewMode.Hierarchy && (
        <Alert type={parents.length ? 'info' : 'warning'} showIcon
          title={parents.length ? t('treeView.designer.hierarchyHint', { levels: HIERARCHY_VIEW_LIMITS.maxLevels, records: HIERARCHY_VIEW_LIMITS.maxRecords }) : t('treeView.designer.noParentField')} />
      )}
    </Flex>
  );
}

/**
 * The view's fixed filter: conditions that all hold, AND-ed with what users choose at run time. Rows still lacking a
 * value stay in the editor and are left out of the saved filter. A saved filter with groups (Or) shows as such and
 * can only be cleared here.
 */
export function FixedFilterSection({ view, fields, onChange }: SectionProps) {
  const { t } = useTranslation();
  const flat = fromFilter(view.filter);
  const grouped = !!view.filter && 'children' in view.filter && (view.filter.type !== 'And' || view.filter.children.some((c) => 'children' in c));
  const [rows, setRows] = useState<Condition[]>(flat);
  const update = (next: Condition[]) => {
    setRows(next);
    onChange({ filter: toFilter(next) });
  };
  const usable = fields.filter((f) => f.operators.length > 0);
  return (
    <Card size="small" title={t('treeView.designer.fixedFilter')} extra={<Typography.Text type="secondary">{t('treeView.designer.fixedFilterHint')}</Typography.Text>}>
      <Flex vertical gap="small" role="group" aria-label={t('treeView.designer.fixedFilter')}>
        {grouped ? (
          <Alert type="info" showIcon title={t('treeView.designer.groupedFilter')} action={<Typography.Link onClick={() => update([])}>{t('treeView.designer.clearFilter')}</Typography.Link>} />
        ) : (
          <ConditionRows fields={usable} conditions={rows} onChange={update} />
        )}
      </Flex>
    </Card>
  );
}
