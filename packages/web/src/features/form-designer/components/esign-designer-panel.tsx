import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDesignerContext } from '../hooks/designer-context.ts';
import { FieldRow } from '../options/field-row.tsx';
import { allControls, type DesignerControl } from '../state/control-tree.ts';
import { FORM_LAYOUT, printApi, printKeys } from '../../print/print-api.ts';

/** The e-sign control's settings the generic options panel does not draw (docs/decisions/0123, e-signature). */
export const ESIGN_PANEL_KEYS = ['templateCode', 'attachmentCode'];

/** 电子签章: the print template whose PDF is signed, and the attachment control the signed PDF goes into. */
export function ESignDesignerPanel({ control, onChange }: { control: DesignerControl; onChange: (options: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const { state } = useDesignerContext();
  const [params] = useSearchParams();
  const schemaCode = params.get('schemaCode') ?? '';
  // Templates exist once the form is published; before that the default (the form's layout) is what is signed.
  const header = useQuery({ queryKey: printKeys.header(schemaCode), queryFn: () => printApi.header(schemaCode), enabled: !!schemaCode, retry: false });
  const o = control.options;
  const templates = [{ value: FORM_LAYOUT, label: t('eSign.designer.formLayout') }, ...(header.data?.templates ?? []).map((tpl) => ({ value: tpl.templateId, label: tpl.name }))];
  const attachments = allControls(state.controls)
    .filter((c) => c.type === 'attachment')
    .map((c) => ({ value: c.code, label: `${typeof c.options.displayName === 'string' ? c.options.displayName : c.code}（${c.code}）` }));
  return (
    <>
      <FieldRow label={t('eSign.designer.template')} htmlFor={`esign-template-${control.uid}`} extra={t('eSign.designer.templateHelp')}>
        <Select
          id={`esign-template-${control.uid}`}
          allowClear
          loading={header.isLoading}
          placeholder={t('eSign.designer.templatePlaceholder')}
          value={typeof o.templateCode === 'string' ? o.templateCode : undefined}
          options={templates}
          onChange={(value?: string) => onChange({ ...o, templateCode: value ?? null })}
        />
      </FieldRow>
      <FieldRow label={t('eSign.designer.attachment')} htmlFor={`esign-attachment-${control.uid}`} extra={t('eSign.designer.attachmentHelp')}>
        <Select
          id={`esign-attachment-${control.uid}`}
          allowClear
          placeholder={t('eSign.designer.attachmentPlaceholder')}
          value={typeof o.attachmentCode === 'string' ? o.attachmentCode : undefined}
          options={attachments}
          onChange={(value?: string) => onChange({ ...o, attachmentCode: value ?? null })}
        />
      </FieldRow>
    </>
  );
}
