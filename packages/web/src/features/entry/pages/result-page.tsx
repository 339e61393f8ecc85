import { Result } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BackToLoginButton } from '../components/back-to-login.tsx';

/** /entry/error and /entry/success: the text comes from ?message= (rendered as text, never as HTML). */
function MessageResult({ kind }: { kind: 'error' | 'success' }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const message = params.get('message')?.trim();
  const isError = kind === 'error';
  return (
    <Result
      status={kind}
      title={isError ? t('result.errorTitle') : t('result.successTitle')}
      subTitle={message || (isError ? t('result.defaultError') : t('result.defaultSuccess'))}
      extra={<BackToLoginButton primary />}
    />
  );
}

export const ErrorResultPage = () => <MessageResult kind="error" />;
export const SuccessResultPage = () => <MessageResult kind="success" />;
