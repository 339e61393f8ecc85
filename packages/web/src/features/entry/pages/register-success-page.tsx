import { Button, Result } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** /entry/register/success: the organisation is ready; the session cookies were set by the form. */
export function RegisterSuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const engineName = (useLocation().state as { engineName?: string } | null)?.engineName;
  return (
    <Result
      status="success"
      title={t('registerSuccess.title')}
      subTitle={engineName ? t('registerSuccess.subtitleNamed', { engineName }) : t('registerSuccess.subtitle')}
      extra={
        <Button type="primary" autoFocus onClick={() => navigate('/workbench', { replace: true })}>
          {t('registerSuccess.enterWorkbench')}
        </Button>
      }
    />
  );
}
