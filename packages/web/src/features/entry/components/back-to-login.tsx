import { Button } from 'antd';
import { useNavigate } from 'react-router';
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
