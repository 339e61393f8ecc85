import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';

/**
 * When the signed-in user cannot be loaded. A refusal with a reason (user disabled, engine disabled or archived)
 * says why and offers to sign in as someone else; anything else offers a retry.
 */
export function UserInfoError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const reason = isApiError(error) && error.errorType === 'BIZ' ? error.errorMessage : undefined;
  return (
    <Result
      status={reason ? 'warning' : 'error'}
      title={t('workbench.loadFailed')}
      subTitle={reason}
      extra={[
        <Button key="retry" onClick={onRetry}>
          {t('common.retry')}
        </Button>,
        <Button key="sign-in" type={reason ? 'primary' : 'default'} onClick={() => navigate('/entry/logout')}>
          {t('common.signInAgain')}
        </Button>,
      ]}
    />
  );
}
