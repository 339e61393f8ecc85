import { Divider, Flex, Tabs, Typography } from 'antd';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CodeLoginForm } from '../components/code-login-form.tsx';
import { PasswordLoginForm } from '../components/password-login-form.tsx';

/** /entry/: the login home with password and code tabs and the other ways in. */
export function LoginHomePage() {
  const { t } = useTranslation();
  // Other ways in keep the query, so ?redirectUrl= and ?engineCode= still apply there.
  const { search } = useLocation();
  const withQuery = (pathname: string) => ({ pathname, search });

  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('login.welcome')}
      </Typography.Title>
      <Tabs
        items={[
          { key: 'password', label: t('login.tabPassword'), children: <PasswordLoginForm /> },
          { key: 'code', label: t('login.tabCode'), children: <CodeLoginForm /> },
        ]}
      />
      <Flex justify="space-between" style={{ marginTop: 16 }}>
        <Link to="/entry/login/reset">{t('login.forgotPassword')}</Link>
        <span>
          <Typography.Text type="secondary">{t('login.noAccount')}</Typography.Text>
          <Link to="/entry/register">{t('login.register')}</Link>
        </span>
      </Flex>
      <Divider plain>
        <Typography.Text type="secondary">{t('login.otherWays')}</Typography.Text>
      </Divider>
      <Flex justify="center" gap="large" wrap>
        <Link to={withQuery('/entry/login/corp')}>{t('login.corpLogin')}</Link>
        <Link to={withQuery('/entry/login/dingtalk')}>{t('login.dingtalk')}</Link>
        <Link to={withQuery('/entry/login/wxwork')}>{t('login.wxwork')}</Link>
        <Link to={withQuery('/entry/login/wechat')}>{t('login.wechat')}</Link>
      </Flex>
    </>
  );
}
