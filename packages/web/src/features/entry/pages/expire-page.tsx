import { Button, Result } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** /entry/expire: where a 401 lands; signing in again returns to the page that failed (?redirectUrl=). */
export function ExpirePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  return (
    <Result
      status="warning"
      title={t('expire.title')}
      subTitle={t('expire.subtitle')}
      extra={
        <Button type="primary" autoFocus onClick={() => navigate({ pathname: '/entry/', search })}>
          {t('common.signInAgain')}
        </Button>
      }
    />
  );
}
