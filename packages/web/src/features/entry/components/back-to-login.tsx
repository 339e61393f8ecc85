import { Button, Flex } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The way back to the login home that every result page offers. */
export function BackToLoginButton({ primary = false, labelKey = 'common.backToLogin' }: { primary?: boolean; labelKey?: 'common.backToLogin' | 'common.signInAgain' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button type={primary ? 'primary' : 'default'} onClick={() => navigate('/entry/')}>
      {t(labelKey)}
    </Button>
  );
}

/** The link under an entry form back to the login home, keeping the query (redirectUrl and the like). */
export function BackToLoginLink({ search = '' }: { search?: string }) {
  const { t } = useTranslation();
  return (
    <Flex justify="center" style={{ marginTop: 16 }}>
      <Link to={{ pathname: '/entry/', search }}>{t('common.backToLogin')}</Link>
    </Flex>
  );
}
