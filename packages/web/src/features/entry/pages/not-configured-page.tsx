import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import type { zhCN } from '../../../locales/zh-CN.ts';
import { BackToLoginButton } from '../components/back-to-login.tsx';

export type IntegrationName = keyof typeof zhCN.integration.names;

/**
 * Chat-platform sign-in, registration and authorisation pages. No provider is connected yet (the server answers
 * 200901 for all of them), so the page says so plainly and offers the way back.
 */
export function NotConfiguredPage({ integration }: { integration: IntegrationName }) {
  const { t } = useTranslation();
  const name = t(`integration.names.${integration}`);
  return (
    <Result
      status="info"
      title={t('integration.notConfiguredTitle', { name })}
      subTitle={t('integration.notConfiguredHint', { name })}
      extra={<BackToLoginButton primary />}
    />
  );
}
