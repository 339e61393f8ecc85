import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Flex, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The frame of a page for visitors without an account (public fill-in, a shared record): centred, no workbench. */
export function VisitorFrame({ children }: { children: ReactNode }) {
  return (
    <Flex justify="center" style={{ minHeight: '100vh', padding: 16, background: 'var(--ant-color-bg-layout, #f5f5f5)' }}>
      <div style={{ width: '100%', maxWidth: 720 }}>{children}</div>
    </Flex>
  );
}

/** Asks a link's password; `wrong` says the last one given was refused. */
export function PasswordCard({ title, wrong, onOpen }: { title: string; wrong: boolean; onOpen: (password: string) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  return (
    <Card title={title}>
      <Flex vertical gap="middle">
        <Typography.Text>{t('externalForm.page.passwordTitle')}</Typography.Text>
        {wrong && <Alert type="error" showIcon title={t('externalForm.page.passwordWrong')} />}
        <Input.Password aria-label={t('externalForm.password')} value={typed} onChange={(e) => setTyped(e.target.value)} onPressEnter={() => typed && onOpen(typed)} />
        <Button type="primary" disabled={!typed} onClick={() => onOpen(typed)}>{t('externalForm.page.open')}</Button>
      </Flex>
    </Card>
  );
}
