import { useState } from 'react';
import { Alert, Checkbox, List, Modal, Typography, message } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { appPackageApi, appPackageKeys } from './app-package-api.ts';

interface ExportPackageDialogProps {
  app: { code: string; displayName: string };
  onClose: () => void;
}

/** 导出应用包: what keeps the app from travelling (forms outside it are mapped by the installer), then the file. */
export function ExportPackageDialog({ app, onClose }: ExportPackageDialogProps) {
  const { t } = useTranslation();
  const [sampleData, setSampleData] = useState(true);
  const [busy, setBusy] = useState(false);
  const check = useQuery({ queryKey: appPackageKeys.check(app.code), queryFn: () => appPackageApi.check(app.code) });
  const problems = check.data?.problems ?? [];
  const outside = problems.filter((p) => p.message.startsWith('引用了应用之外的表单'));
  const blocking = problems.filter((p) => !outside.includes(p));
  const run = async () => {
    setBusy(true);
    try {
      const built = await appPackageApi.export(app.code, sampleData);
      await appPackageApi.download(built.packageId, app.displayName);
      void message.success(t('appPackage.export.done', { name: app.displayName }));
      onClose();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('appPackage.export.title', { name: app.displayName })}
      okText={t('appPackage.export.ok')}
      onOk={() => void run()}
      okButtonProps={{ disabled: check.isLoading || blocking.length > 0, loading: busy }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('appPackage.export.intro')}</Typography.Paragraph>
      {blocking.length > 0 && (
        <Alert type="error" showIcon title={t('appPackage.export.blocked', { count: blocking.length })} description={<List size="small" dataSource={blocking} renderItem={(p) => <List.Item>{p.message}</List.Item>} />} style={{ marginBottom: 12 }} />
      )}
      {outside.length > 0 && <Alert type="warning" showIcon title={t('appPackage.export.outside', { count: outside.length })} style={{ marginBottom: 12 }} />}
      <Checkbox checked={sampleData} onChange={(e) => setSampleData(e.target.checked)}>
        {t('appPackage.export.sampleData')}
      </Checkbox>
    </Modal>
  );
}
