import { App, Button, Flex, theme } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import { formPageUrl, printUrl } from '../components/runtime-form-modal.tsx';
import { RuntimeForm } from '../components/runtime-form.tsx';
import { FORM_MODES, type FormMode } from '../fields/field-types.ts';
import { PrintPreview } from '../../print/print-preview.tsx';

// The print page hides the browser's own chrome of the app: only the form goes to paper.
const PRINT_CSS = '@media print { .tritium-no-print { display: none !important; } body { background: #fff; } }';

/**
 * A form on a page of its own (FORM_RUNTIME_PATH/:schemaCode for a new record, /:schemaCode/:objectId?mode=View|Edit|Print).
 * Print renders a clean page for the browser's print dialog.
 */
export function FormPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { schemaCode = '', objectId } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const phone = useIsPhone();
  const asked = search.get('mode') as FormMode | null;
  const mode: FormMode = asked && FORM_MODES.includes(asked) ? asked : objectId ? 'View' : 'Create';
  const print = mode === 'Print';
  const go = (next: string | null, nextMode: FormMode) => navigate(next ? formPageUrl(schemaCode, next, nextMode) : formPageUrl(schemaCode));
  // Print mode: the record through the form's print template (or its own layout), for the browser's print dialog.
  if (print && objectId) {
    return (
      <App>
        <style>{PRINT_CSS}</style>
        <PrintPreview schemaCode={schemaCode} objectIds={[objectId]} />
      </App>
    );
  }
  return (
    <App>
      <style>{PRINT_CSS}</style>
      <Flex vertical style={{ minHeight: '100vh', background: token.colorBgContainer, maxWidth: print ? 900 : undefined, margin: '0 auto', width: '100%' }}>
        {print && (
          <Flex justify="flex-end" className="tritium-no-print" style={{ padding: token.paddingSM }}>
            <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
              {t('formRuntime.actions.Print')}
            </Button>
          </Flex>
        )}
        <RuntimeForm
          key={objectId ?? 'new'}
          schemaCode={schemaCode}
          objectId={objectId}
          mode={mode}
          device={phone ? 'phone' : 'pc'}
          page
          onOpen={go}
          onClose={() => (window.history.length > 1 ? navigate(-1) : navigate('/workbench'))}
          onPrint={(id) => window.open(printUrl(schemaCode, id), '_blank', 'noopener')}
        />
      </Flex>
    </App>
  );
}
