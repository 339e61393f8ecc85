import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';

/** A form that cannot be designed here: missing (404), not this person's to design (403), or failed to load. */
export function DesignerResult({ error, onRetry }: { error?: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = !error ? 404 : isApiError(error) ? error.status : 0;
  const back = (
    <Button key="back" type="primary" onClick={() => navigate('/workbench')}>
      {t('formDesigner.backToWorkbench')}
    </Button>
  );
  if (status === 404) return <Result status="404" title={t('formDesigner.notFoundTitle')} subTitle={t('formDesigner.notFoundHint')} extra={back} />;
  if (status === 403) return <Result status="403" title={t('formDesigner.forbiddenTitle')} subTitle={t('formDesigner.forbiddenHint')} extra={back} />;
  return (
    <Result
      status="error"
      title={t('formDesigner.loadFailedTitle')}
      subTitle={isApiError(error) ? error.errorMessage : undefined}
      extra={[
        back,
        <Button key="retry" onClick={onRetry}>
          {t('common.retry')}
        </Button>,
      ]}
    />
  );
}
