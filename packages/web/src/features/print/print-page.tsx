import { App } from 'antd';
import { useParams, useSearchParams } from 'react-router';
import { PrintPreview } from './print-preview.tsx';

const PRINT_CSS = '@media print { .tritium-no-print { display: none !important; } }';

/** FORM_PRINT_PATH/:schemaCode?ids=a,b&templateId= — records of a list printed in the browser (issue 24). */
export function PrintPage() {
  const { schemaCode = '' } = useParams();
  const [search] = useSearchParams();
  const ids = (search.get('ids') ?? '').split(',').filter(Boolean);
  return (
    <App>
      <style>{PRINT_CSS}</style>
      <PrintPreview schemaCode={schemaCode} objectIds={ids} initialTemplateId={search.get('templateId') ?? undefined} />
    </App>
  );
}
