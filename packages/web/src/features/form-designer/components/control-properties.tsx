import { Empty, Form, Input, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { controlTypeByKey, type AnyControlType } from '@tritium/shared/controls/index';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { controlTypeName } from '../labels.ts';
import { OptionsEditor } from '../options/options-editor.tsx';
import { FieldRow } from '../options/option-field.tsx';
import { codeProblem, locateControl, systemFieldOf } from '../state/control-tree.ts';
import { PanesEditor } from './panes-editor.tsx';
import { ROLLUP_PANEL_KEYS, RollupSourcePanel } from '../business-rules/rollup-source-panel.tsx';
import { ADVANCED_BUTTON_PANEL_KEYS, AdvancedButtonPanel } from './advanced-button-panel.tsx';
import { ESIGN_PANEL_KEYS, ESignDesignerPanel } from './esign-designer-panel.tsx';
import { PLUGIN_PANEL_KEYS, PluginControlPanel } from './plugin-control-panel.tsx';
import { OCR_PANEL_KEYS, OcrDesignerPanel } from './ocr-designer-panel.tsx';

/** The decimal places a value of the control keeps (its show mode's default until one is set); undefined without any. */
function decimalPlacesShown(type: AnyControlType, options: Record<string, unknown>): number | undefined {
  const parsed = type.options.safeParse(options);
  const places = parsed.success ? (parsed.data as { decimalPlaces?: unknown }).decimalPlaces : undefined;
  return typeof places === 'number' ? places : undefined;
}

/** 控件属性: the selected control's type, code, options (from its type's schema) and, for a tab, its panes. */
export function ControlProperties() {
  const { t } = useTranslation();
  const { state, dispatch } = useDesignerContext();
  const location = state.selectedUid ? locateControl(state.controls, state.selectedUid) : undefined;
  if (!location) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('formDesigner.properties.noSelection')} />;
  const { control } = location;
  const type = controlTypeByKey(control.type);
  const isSystem = !!systemFieldOf(type);
  const problem = codeProblem(state.controls, control.uid, control.code);
  const codeError = !problem
    ? undefined
    : problem.kind === 'invalid'
      ? problem.message
      : t(problem.kind === 'taken' ? 'formDesigner.properties.codeTaken' : 'formDesigner.properties.codeSystemField');
  const codeId = `code-${control.uid}`;
  // Values with more decimals are refused, so the places are shown from the moment the control is added.
  const places = decimalPlacesShown(type, control.options);

  return (
    <Form layout="vertical" component={false}>
      <FieldRow label={t('formDesigner.properties.type')}>
        <Tag>{controlTypeName(control.type)}</Tag>
        {places !== undefined && <Tag color="blue">{t('formDesigner.properties.decimalPlaces', { places })}</Tag>}
      </FieldRow>
      <FieldRow label={t('formDesigner.properties.code')} htmlFor={codeId} errors={codeError ? [codeError] : undefined} extra={isSystem ? t('formDesigner.properties.codeFixed') : undefined}>
        <Input id={codeId} value={control.code} disabled={isSystem} onChange={(event) => dispatch({ type: 'setCode', uid: control.uid, code: event.target.value })} />
      </FieldRow>
      {control.type === 'rollup' && <RollupSourcePanel control={control} onChange={(options) => dispatch({ type: 'setOptions', uid: control.uid, options })} />}
      {control.type === 'advancedButton' && <AdvancedButtonPanel control={control} onChange={(options) => dispatch({ type: 'setOptions', uid: control.uid, options })} />}
      {control.type === 'eSign' && <ESignDesignerPanel control={control} onChange={(options) => dispatch({ type: 'setOptions', uid: control.uid, options })} />}
      {control.type === 'plugin' && <PluginControlPanel control={control} onChange={(options) => dispatch({ type: 'setOptions', uid: control.uid, options })} />}
      {control.type === 'ocr' && <OcrDesignerPanel control={control} onChange={(options) => dispatch({ type: 'setOptions', uid: control.uid, options })} />}
      <OptionsEditor
        omit={control.type === 'rollup' ? ROLLUP_PANEL_KEYS : control.type === 'advancedButton' ? ADVANCED_BUTTON_PANEL_KEYS : control.type === 'plugin' ? PLUGIN_PANEL_KEYS : control.type === 'eSign' ? ESIGN_PANEL_KEYS : control.type === 'ocr' ? OCR_PANEL_KEYS : undefined}
        key={control.uid}
        idPrefix={`opt-${control.uid}`}
        schema={type.options}
        value={control.options}
        onChange={(options) => dispatch({ type: 'setOptions', uid: control.uid, options })}
      />
      {type.children === 'panes' && <PanesEditor tab={control} />}
    </Form>
  );
}
