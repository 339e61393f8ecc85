import { Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { connectorKeys, connectorsApi } from '../../connectors/connectors-api.ts';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { FieldRow } from '../options/option-field.tsx';
import { allControls, type DesignerControl } from '../state/control-tree.ts';
import type { zhCNConnectors } from '../../../locales/zh-CN-connectors.ts';

/** The advanced button's settings the generic options panel does not draw (docs/decisions/0120). */
export const ADVANCED_BUTTON_PANEL_KEYS = ['connectionCode', 'connectorCode', 'resultMapping'];

/** Controls an output may fill: the form's data controls and sub-tables, not the columns inside a sub-table. */
function targetsOf(controls: DesignerControl[]): DesignerControl[] {
  const all = allControls(controls);
  const inGrids = new Set(all.filter((c) => c.type === 'gridView').flatMap((g) => (g.controls ?? []).map((c) => c.uid)));
  return all.filter((c) => !inGrids.has(c.uid) && (c.type === 'gridView' || controlTypeByKey(c.type).dataType !== 'none'));
}

/** 高级按钮: which connector it runs, and which control each of the connector's outputs fills. */
export function AdvancedButtonPanel({ control, onChange }: { control: DesignerControl; onChange: (options: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const { state } = useDesignerContext();
  const choices = useQuery({ queryKey: connectorKeys.choices, queryFn: connectorsApi.choices });
  const o = control.options;
  const connectorCode = typeof o.connectorCode === 'string' ? o.connectorCode : null;
  const chosen = choices.data?.items.find((c) => c.code === connectorCode);
  const mapping = (o.resultMapping ?? {}) as Record<string, string>;
  const controlOf = (output: string) => Object.entries(mapping).find(([, name]) => name === output)?.[0];
  const setTarget = (output: string, target: string | undefined) => {
    const next = Object.fromEntries(Object.entries(mapping).filter(([code, name]) => name !== output && code !== target));
    onChange({ ...o, resultMapping: target ? { ...next, [target]: output } : next });
  };
  const targets = targetsOf(state.controls).map((c) => ({ value: c.code, label: `${typeof c.options.displayName === 'string' ? c.options.displayName : c.code}（${c.code}）` }));
  const d = (key: keyof typeof zhCNConnectors.designer) => t(`connectors.designer.${key}` as const);
  return (
    <>
      <FieldRow label={d('connector')} htmlFor={`connector-${control.uid}`}>
        <Select
          id={`connector-${control.uid}`}
          allowClear
          loading={choices.isLoading}
          placeholder={d('connectorPlaceholder')}
          value={connectorCode ?? undefined}
          options={(choices.data?.items ?? []).map((c) => ({ value: c.code, label: `${c.connectionName} / ${c.name}` }))}
          onChange={(code?: string) => onChange({ ...o, connectorCode: code ?? null, resultMapping: {} })}
        />
      </FieldRow>
      {chosen && (
        <FieldRow label={d('mapping')} extra={d('mappingHelp')}>
          {chosen.outputs.length === 0 && <Typography.Text type="secondary">{d('noOutputs')}</Typography.Text>}
          {chosen.outputs.map((output) => (
            // The output's name above its field: a long name stays on one line and the picker keeps the panel's width.
            <div key={output} style={{ marginBottom: 8 }}>
              <Typography.Text code ellipsis={{ tooltip: output }} style={{ display: 'block', maxWidth: '100%', marginBottom: 2 }}>{output}</Typography.Text>
              <Select allowClear aria-label={output} placeholder={d('targetPlaceholder')} style={{ width: '100%' }} value={controlOf(output)} options={targets} onChange={(code?: string) => setTarget(output, code)} />
            </div>
          ))}
        </FieldRow>
      )}
    </>
  );
}
