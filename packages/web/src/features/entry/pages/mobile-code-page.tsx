import { Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { ProductMark } from '../../../components/product-mark.tsx';
import { CodeLoginForm } from '../components/code-login-form.tsx';

/** /mobile/code: code sign-in for phones, outside the entry layout (calls.md §2): full width, no card. */
export function MobileCodePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical style={{ maxWidth: 420, margin: '0 auto', padding: token.paddingLG, minHeight: '100vh', boxSizing: 'border-box' }}>
      <header style={{ margin: `${token.marginXL}px 0 ${token.marginLG}px` }}>
        <ProductMark />
      </header>
      <main>
        <Typography.Title level={4}>{t('titles.verifyCodeLogin')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('login.mobileCodeIntro')}</Typography.Paragraph>
        <CodeLoginForm formName="mobileCodeLogin" />
      </main>
    </Flex>
  );
}
