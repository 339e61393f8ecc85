import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PaySettingsPanel } from './pay-settings-panel.tsx';
import { pluginKeys, pluginsApi } from '../../plugins/plugins-api.ts';
import { FieldRow } from '../options/option-field.tsx';
import type { DesignerControl } from '../state/control-tree.ts';

/** The plugin control's settings the generic options panel does not draw (docs/decisions/0123). */
export const PLUGIN_PANEL_KEYS = ['pluginCode', 'pluginSettings'];

type PluginSettings = Record<string, string | number | boolean | null>;

/** 插件控件: which installed plugin draws it, and for the payment plugin its own settings (amount, subject…). */
export function PluginControlPanel({ control, onChange }: { control: DesignerControl; onChange: (options: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const instances = useQuery({ queryKey: pluginKeys.instances, queryFn: pluginsApi.instances });
  const o = control.options;
  const pluginCode = typeof o.pluginCode === 'string' ? o.pluginCode : null;
  // Plugins that draw this control: the payment plugin and the engine's own; the chosen one stays listed even if uninstalled.
  const offered = (instances.data?.items ?? []).filter((i) => i.offers.controls.includes('plugin') && (i.status === 'installed' || i.code === pluginCode));
  const chosen = offered.find((i) => i.code === pluginCode);
  const id = `plugin-${control.uid}`;
  return (
    <>
      <FieldRow
        label={t('plugins.designer.plugin')}
        htmlFor={id}
        extra={instances.data && !offered.length ? t('plugins.designer.noneInstalled') : chosen && chosen.status !== 'installed' ? t('plugins.designer.notInstalled') : undefined}
      >
        <Select
          id={id}
          allowClear
          loading={instances.isLoading}
          placeholder={t('plugins.designer.pluginPlaceholder')}
          value={pluginCode ?? undefined}
          options={offered.map((i) => ({ value: i.code, label: i.name }))}
          onChange={(code?: string) => onChange({ ...o, pluginCode: code ?? null, pluginSettings: {} })}
        />
      </FieldRow>
      {chosen?.templateCode === 'payment' && (
        <PaySettingsPanel value={(o.pluginSettings ?? {}) as PluginSettings} onChange={(next) => onChange({ ...o, pluginSettings: next })} />
      )}
    </>
  );
}
