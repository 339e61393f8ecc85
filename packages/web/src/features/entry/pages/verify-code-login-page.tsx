import { Flex, Typography } from 'antd';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CodeLoginForm } from '../components/code-login-form.tsx';

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
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Link to={{ pathname: '/entry/', search }}>{t('common.backToLogin')}</Link>
      </Flex>
    </>
  );
}
