import { Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { FieldRow } from '../options/field-row.tsx';
import { allControls, type DesignerControl } from '../state/control-tree.ts';

/** The payment plugin's settings of one plugin control in the form designer (docs/decisions/0123): the payment part fills it in. */
export interface PluginSettingsPanelProps {
  /** The control's `pluginSettings`. */
  value: Record<string, string | number | boolean | null>;
  onChange: (next: Record<string, string | number | boolean | null>) => void;
}

const SUBJECT_TYPES = new Set(['textBox', 'textArea', 'dropDown', 'radioList']);

/** The form's main-table controls of these types (a sub-table's columns hold many values per record, not one). */
function fieldsOf(controls: DesignerControl[], types: (type: string) => boolean): { value: string; label: string }[] {
  const all = allControls(controls);
  const inGrids = new Set(all.filter((c) => c.type === 'gridView').flatMap((g) => (g.controls ?? []).map((c) => c.uid)));
  return all
    .filter((c) => !inGrids.has(c.uid) && types(c.type))
    .map((c) => ({ value: c.code, label: `${typeof c.options.displayName === 'string' && c.options.displayName ? c.options.displayName : c.code}（${c.code}）` }));
}

/**
 * 在线支付 control's settings: the number field whose saved value is the amount to pay, and the text field used as
 * the order's subject (the record's title when none). The server reads both from the record when a payment starts.
 */
export function PaySettingsPanel({ value, onChange }: PluginSettingsPanelProps) {
  const { t } = useTranslation();
  const { state } = useDesignerContext();
  const numbers = fieldsOf(state.controls, (type) => type === 'number');
  const texts = fieldsOf(state.controls, (type) => SUBJECT_TYPES.has(type));
  const amountField = typeof value.amountField === 'string' && value.amountField ? value.amountField : undefined;
  const subjectField = typeof value.subjectField === 'string' && value.subjectField ? value.subjectField : undefined;
  const set = (key: 'amountField' | 'subjectField', code: string | undefined) => onChange({ ...value, [key]: code ?? null });
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('payment.settings.intro')}
      </Typography.Paragraph>
      <FieldRow label={t('payment.settings.amountField')} htmlFor="payment-amount-field" errors={amountField && numbers.some((n) => n.value === amountField) ? undefined : [numbers.length ? t('payment.settings.amountMissing') : t('payment.settings.noNumberField')]}>
        <Select id="payment-amount-field" allowClear placeholder={t('payment.settings.amountPlaceholder')} value={amountField} options={numbers} onChange={(code?: string) => set('amountField', code)} style={{ width: '100%' }} />
      </FieldRow>
      <FieldRow label={t('payment.settings.subjectField')} htmlFor="payment-subject-field">
        <Select id="payment-subject-field" allowClear placeholder={t('payment.settings.subjectPlaceholder')} value={subjectField} options={texts} onChange={(code?: string) => set('subjectField', code)} style={{ width: '100%' }} />
      </FieldRow>
    </>
  );
}
