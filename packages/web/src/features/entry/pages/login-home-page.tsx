import { lazy, Suspense } from 'react';
import { Flex, theme } from 'antd';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CodeLoginForm } from '../components/code-login-form.tsx';
import { PasswordLoginForm } from '../components/password-login-form.tsx';
import { EntryTabs } from '../components/entry-tabs.tsx';
import { TextDivider } from '../components/text-divider.tsx';

// The QR-scan tab loads when it is first opened: most people sign in by password or code (the sign-in page's
// JavaScript ceiling, scripts/bundle-size.mjs).
// It polls through the query cache, which comes with it (docs/decisions/0084).
const ScanLoginForm = lazy(() =>
  Promise.all([import('../components/scan-login-form.tsx'), import('../../../lib/query-provider.tsx')]).then(([form, queries]) => ({
    default: queries.withQueries(form.ScanLoginForm),
  })),
);

/** /entry/: the login home with password, code and QR-scan tabs and the other ways in. */
export function LoginHomePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // Plain elements in the theme's type scale: antd's Typography would add its copy, edit and ellipsis code (0036).
  const secondary = { color: token.colorTextSecondary };
  // Other ways in keep the query, so ?redirectUrl= and ?engineCode= still apply there.
  const { search } = useLocation();
  const withQuery = (pathname: string) => ({ pathname, search });

  return (
    <>
      <h4 style={{ margin: `0 0 ${token.marginXS}px`, fontSize: token.fontSizeHeading4, lineHeight: token.lineHeightHeading4, fontWeight: token.fontWeightStrong, color: token.colorTextHeading }}>
        {t('login.welcome')}
      </h4>
      <EntryTabs
        items={[
          { key: 'password', label: t('login.tabPassword'), children: <PasswordLoginForm /> },
          { key: 'code', label: t('login.tabCode'), children: <CodeLoginForm /> },
          { key: 'scan', label: t('login.tabScan'), children: (
              <Suspense fallback={null}>
                <ScanLoginForm />
              </Suspense>
            ),
          },
        ]}
      />
      <Flex justify="space-between" style={{ marginTop: 16 }}>
        <Link to="/entry/login/reset">{t('login.forgotPassword')}</Link>
        <span>
          <span style={secondary}>{t('login.noAccount')}</span>
          <Link to="/entry/register">{t('login.register')}</Link>
        </span>
      </Flex>
      <TextDivider>
        <span style={secondary}>{t('login.otherWays')}</span>
      </TextDivider>
      <Flex justify="center" gap="large" wrap>
        <Link to={withQuery('/entry/login/corp')}>{t('login.corpLogin')}</Link>
        <Link to={withQuery('/entry/login/dingtalk')}>{t('login.dingtalk')}</Link>
        <Link to={withQuery('/entry/login/wxwork')}>{t('login.wxwork')}</Link>
        <Link to={withQuery('/entry/login/feishu')}>{t('login.feishu')}</Link>
        <Link to={withQuery('/entry/login/wechat')}>{t('login.wechat')}</Link>
      </Flex>
    </>
  );
}
