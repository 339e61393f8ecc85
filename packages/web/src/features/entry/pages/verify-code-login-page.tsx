import { Typography } from 'antd';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CodeLoginForm } from '../components/code-login-form.tsx';
import { BackToLoginLink } from '../components/back-to-login.tsx';

/** /entry/login/verifyCode: code sign-in on its own page. */
export function VerifyCodeLoginPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('titles.verifyCodeLogin')}
      </Typography.Title>
      <CodeLoginForm formName="verifyCodeLogin" />
      <BackToLoginLink search={search} />
    </>
  );
}
