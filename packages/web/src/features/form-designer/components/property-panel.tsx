import { Tabs, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { ControlProperties } from './control-properties.tsx';
import { FormAttributesPanel } from './form-attributes-panel.tsx';
import { BusinessRulesTab } from '../business-rules/business-rules-tab.tsx';

export type PropertyTab = 'control' | 'form' | 'rules';

/** The right pane: 控件属性 (the selected control) and 表单属性 (the whole form). */
export function PropertyPanel({ tab, onTabChange, schemaCode }: { tab: PropertyTab; onTabChange: (tab: PropertyTab) => void; schemaCode?: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <aside aria-label={t('formDesigner.properties.label')} style={{ padding: `0 ${token.padding}px ${token.padding}px` }}>
      <Tabs
        activeKey={tab}
        onChange={(key) => onTabChange(key as PropertyTab)}
        items={[
          { key: 'control', label: t('formDesigner.properties.control'), children: <ControlProperties /> },
          { key: 'form', label: t('formDesigner.properties.form'), children: <FormAttributesPanel /> },
          ...(schemaCode ? [{ key: 'rules', label: t('businessRules.tab'), children: <BusinessRulesTab schemaCode={schemaCode} /> }] : []),
        ]}
      />
    </aside>
  );
}
