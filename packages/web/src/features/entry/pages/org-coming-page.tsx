import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { BackToLoginButton } from '../components/back-to-login.tsx';

/** /entry/ass-org and /entry/make-org: organisation interconnection arrives in a later version. */
export function OrgComingPage() {
  const { t } = useTranslation();
  return <Result status="info" title={t('org.comingTitle')} subTitle={t('org.comingHint')} extra={<BackToLoginButton primary />} />;
}
