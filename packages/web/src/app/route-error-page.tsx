import { useEffect } from 'react';
import { Button, Flex, theme } from 'antd';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { reportError } from '../lib/error-log.ts';

/**
 * Shown when a route fails to load or render (for instance a chunk that could not be fetched). Plain markup
 * rather than antd Result: this page sits in the first chunk every visitor downloads.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { token } = theme.useToken();
  useEffect(() => reportError(error), [error]);
  return (
    <Flex vertical align="center" justify="center" gap={token.margin} style={{ minHeight: '100vh' }} role="alert">
      <h2 style={{ margin: 0, fontSize: token.fontSizeHeading3, color: token.colorText }}>{t('result.errorTitle')}</h2>
      <p style={{ margin: 0, color: token.colorTextSecondary }}>{t('result.defaultError')}</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('common.retry')}
      </Button>
    </Flex>
  );
}
