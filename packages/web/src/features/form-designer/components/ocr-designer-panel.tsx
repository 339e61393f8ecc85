import { Flex, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { FieldRow } from '../options/field-row.tsx';
import { allControls, type DesignerControl } from '../state/control-tree.ts';
import { ocrApi, ocrKeys } from '../../ocr/ocr-api.ts';

/** The OCR control's settings the generic options panel does not draw (docs/decisions/0125). */
export const OCR_PANEL_KEYS = ['templateCode', 'mapping'];

/** Control types a read text can fill (the registry's basic controls that hold text, numbers or dates). */
const FILLABLE = new Set(['textBox', 'textArea', 'number', 'dateTime', 'radioList', 'dropDown']);

const labelOf = (c: DesignerControl) => `${typeof c.options.displayName === 'string' ? c.options.displayName : c.code}（${c.code}）`;

/**
 * OCR识别: the recognition template (built-in ones first), and for each of its fields the form field it fills. The
 * mapping is stored as the registry has it — form control code → template field code.
 */
export function OcrDesignerPanel({ control, onChange }: { control: DesignerControl; onChange: (options: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const { state } = useDesignerContext();
  const templates = useQuery({ queryKey: ocrKeys.templates, queryFn: () => ocrApi.templates(), staleTime: 60_000 });
  const o = control.options;
  const templateCode = typeof o.templateCode === 'string' ? o.templateCode : undefined;
  const mapping = (o.mapping && typeof o.mapping === 'object' ? o.mapping : {}) as Record<string, string>;
  const template = templates.data?.items.find((i) => i.templateCode === templateCode);
  // The main table's fields only: a sub-table's columns hold many values per record.
  const all = allControls(state.controls);
  const inGrids = new Set(all.filter((c) => c.type === 'gridView').flatMap((g) => (g.controls ?? []).map((c) => c.uid)));
  const targets = all
    .filter((c) => c.uid !== control.uid && FILLABLE.has(c.type) && !inGrids.has(c.uid))
    .map((c) => ({ value: c.code, label: labelOf(c) }));
  const targetOf = (fieldCode: string) => Object.entries(mapping).find(([, f]) => f === fieldCode)?.[0];
  const setTarget = (fieldCode: string, target?: string) => {
    const next = Object.fromEntries(Object.entries(mapping).filter(([code, f]) => f !== fieldCode && code !== target));
    if (target) next[target] = fieldCode;
    onChange({ ...o, mapping: next });
  };
  return (
    <>
      <FieldRow label={t('ocr.designer.template')} htmlFor={`ocr-template-${control.uid}`} extra={t('ocr.designer.templateHelp')}>
        <Select
          id={`ocr-template-${control.uid}`}
          allowClear
          loading={templates.isLoading}
          placeholder={t('ocr.designer.templatePlaceholder')}
          value={templateCode}
          options={(templates.data?.items ?? []).map((i) => ({ value: i.templateCode, label: i.builtIn ? `${i.name}（${t('ocr.designer.builtIn')}）` : i.name }))}
          onChange={(value?: string) => onChange({ ...o, templateCode: value ?? null, mapping: {} })}
        />
      </FieldRow>
      {template && (
        <FieldRow label={t('ocr.designer.mapping')} extra={t('ocr.designer.mappingHelp')}>
          <Flex vertical gap={6}>
            {template.fields.map((field) => (
              <Flex key={field.code} align="center" gap="small">
                <Typography.Text style={{ width: 96, flex: 'none' }} ellipsis={{ tooltip: field.name }}>
                  {field.name}
                </Typography.Text>
                <Select
                  aria-label={t('ocr.designer.fills', { name: field.name })}
                  size="small"
                  allowClear
                  style={{ flex: 1, minWidth: 0 }}
                  placeholder={t('ocr.designer.notFilled')}
                  value={targetOf(field.code)}
                  options={targets}
                  onChange={(value?: string) => setTarget(field.code, value)}
                />
              </Flex>
            ))}
          </Flex>
        </FieldRow>
      )}
    </>
  );
}
