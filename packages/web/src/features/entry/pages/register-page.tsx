import { Flex, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasToken } from '../../../lib/session.ts';
import { RegisterForm } from '../components/register-form.tsx';

function RegisterFrame({ intro, allowSignedIn }: { intro: string; allowSignedIn: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>
      <RegisterForm allowSignedIn={allowSignedIn} />
      <Flex justify="center" gap="small" style={{ marginTop: 16 }}>
        <Typography.Text type="secondary">{t('register.haveAccount')}</Typography.Text>
        <Link to="/entry/">{t('register.toLogin')}</Link>
      </Flex>
    </>
  );
}

/** /entry/register and /entry/register/authCode: a new account (or a known number) with its organisation. */
export function RegisterPage() {
  const { t } = useTranslation();
  return <RegisterFrame intro={t('register.intro')} allowSignedIn={false} />;
}

/** /entry/register/corp: the same form; a signed-in person only names the new organisation. */
export function RegisterCorpPage() {
  const { t } = useTranslation();
  return <RegisterFrame intro={hasToken() ? t('register.signedInIntro') : t('register.corpIntro')} allowSignedIn />;
}
