import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Descriptions, Modal, Progress, Select, Space, Tag, Typography, Upload, message } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { appKeys, appsApi } from '../apps/api/apps-api.ts';
import { appPackageApi, appPackageKeys, type PackageInfo } from './app-package-api.ts';

const POLL_MS = 500;
const ENDED = ['Finished', 'Failed', 'Canceled', 'Timeout'];
const FORM_TYPES = [200, 210, 240];

interface ImportPackageDialogProps {
  onClose: () => void;
  onOpenApp: (appCode: string) => void;
}

/** The forms of this organisation a form outside the package may be mapped to. */
function useOwnForms(enabled: boolean) {
  return useQuery({
    queryKey: ['app-package', 'own-forms'],
    enabled,
    queryFn: async () => {
      const { list } = await appsApi.listApps();
      const forms: { value: string; label: string }[] = [];
      for (const app of list) {
        const features = await appsApi.features(app.code);
        for (const n of features.list) if (FORM_TYPES.includes(n.nodeType)) forms.push({ value: n.code, label: `${app.displayName} / ${n.displayName}` });
      }
      return forms;
    },
  });
}

function InstallProgressView({ actionId, onOpenApp }: { actionId: string; onOpenApp: (appCode: string) => void }) {
  const { t } = useTranslation();
  const progress = useQuery({
    queryKey: appPackageKeys.progress(actionId),
    queryFn: () => appPackageApi.progress(actionId),
    refetchInterval: (q) => (q.state.data && ENDED.includes(q.state.data.state) ? false : POLL_MS),
  });
  const job = progress.data;
  const running = !job || !ENDED.includes(job.state);
  const queryClient = useQueryClient();
  // The new app joins the list as soon as it is there.
  useEffect(() => {
    if (job?.isComplete) void queryClient.invalidateQueries({ queryKey: appKeys.list });
  }, [job?.isComplete, queryClient]);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Progress percent={job?.isComplete ? 100 : Math.round(job?.progress ?? 0)} status={job?.state === 'Finished' ? 'success' : running ? 'active' : 'exception'} aria-label={t('appPackage.import.progress')} />
      {running && <Typography.Text type="secondary">{job?.state === 'Running' ? (job.message ?? t('appPackage.import.running')) : t('appPackage.import.waiting')}</Typography.Text>}
      {job?.isComplete && job.appCode && (
        <>
          <Alert type="success" showIcon title={t('appPackage.import.done')} description={job.unmatched?.length ? t('appPackage.import.unmatched', { names: job.unmatched.join('、') }) : undefined} />
          <Button type="primary" onClick={() => onOpenApp(job.appCode!)}>
            {t('appPackage.import.open')}
          </Button>
        </>
      )}
      {running && job?.state === 'Running' && (
        <Button danger onClick={() => void appPackageApi.cancel(actionId).then(() => progress.refetch())}>
          {t('appPackage.import.cancel')}
        </Button>
      )}
      {!running && !job?.isComplete && job && (
        <>
          <Alert type="error" showIcon title={t('appPackage.import.failed', { message: job.message ?? job.state })} />
          {(job.state === 'Timeout' || job.state === 'Failed') && <Button onClick={() => void appPackageApi.retry(actionId).then(() => progress.refetch())}>{t('appPackage.import.retry')}</Button>}
        </>
      )}
    </Space>
  );
}

/** 导入应用包: upload a file, see what it holds (and map forms outside it), install it with a progress bar, open the app. */
export function ImportPackageDialog({ onClose, onOpenApp }: ImportPackageDialogProps) {
  const { t } = useTranslation();
  const [info, setInfo] = useState<PackageInfo>();
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string>();
  const [sampleData, setSampleData] = useState(true);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [actionId, setActionId] = useState<string>();
  const external = info?.summary.externalForms ?? [];
  const ownForms = useOwnForms(external.length > 0);
  const unmapped = external.filter((f) => !mapping[f.code]);
  const upload = async (file: File) => {
    setUploading(true);
    setError(undefined);
    try {
      const stored = await appPackageApi.upload(file);
      // The stored package is the one to install, whatever the info call answers about it.
      setInfo({ ...(await appPackageApi.info(stored.packageId)), packageId: stored.packageId });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setUploading(false);
    }
  };
  const install = async () => {
    try {
      const started = await appPackageApi.install({ packageId: info!.packageId, sampleData, ...(external.length ? { formMapping: mapping } : {}) });
      setActionId(started.actionId);
    } catch (e) {
      void message.error((e as Error).message);
    }
  };
  const units = (list: PackageInfo['roles']) => list.map((u) => <Tag key={u.name} color={u.matched ? 'green' : 'orange'}>{u.matched ? u.name : t('appPackage.import.notMatched', { name: u.name })}</Tag>);
  return (
    <Modal open title={t('appPackage.import.title')} onCancel={onClose} maskClosable={false} footer={actionId ? null : [
      <Button key="cancel" onClick={onClose}>{t('appPackage.import.close')}</Button>,
      <Button key="install" type="primary" disabled={!info || unmapped.length > 0} onClick={() => void install()}>{t('appPackage.import.install')}</Button>,
    ]} destroyOnHidden>
      {actionId ? (
        <InstallProgressView actionId={actionId} onOpenApp={onOpenApp} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Upload.Dragger accept=".gz,.tgz,application/gzip" showUploadList={false} disabled={uploading} beforeUpload={(file) => (void upload(file), false)}>
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p className="ant-upload-text">{uploading ? t('appPackage.import.checking') : t('appPackage.import.drop')}</p>
            <p className="ant-upload-hint">{t('appPackage.import.hint')}</p>
          </Upload.Dragger>
          {error && <Alert type="error" showIcon title={t('appPackage.import.refused')} description={error} />}
          {info && (
            <>
              <Descriptions size="small" column={1} bordered items={[
                { key: 'name', label: t('appPackage.import.name'), children: info.summary.name },
                { key: 'forms', label: t('appPackage.import.forms'), children: t('appPackage.import.formCount', { count: info.summary.formCount }) },
                { key: 'samples', label: t('appPackage.import.samples'), children: t('appPackage.import.sampleCount', { count: info.summary.sampleRecordCount }) },
                ...(info.roles.length || info.departments.length ? [{ key: 'units', label: t('appPackage.import.units'), children: <>{units(info.roles)}{units(info.departments)}</> }] : []),
              ]} />
              {external.map((f) => (
                <Space key={f.code} style={{ width: '100%' }}>
                  <Typography.Text>{t('appPackage.import.mapForm', { name: f.name })}</Typography.Text>
                  <Select style={{ minWidth: 240 }} placeholder={t('appPackage.import.chooseForm')} loading={ownForms.isLoading} options={ownForms.data ?? []} value={mapping[f.code]} onChange={(v: string) => setMapping((m) => ({ ...m, [f.code]: v }))} aria-label={t('appPackage.import.mapForm', { name: f.name })} />
                </Space>
              ))}
              <Checkbox checked={sampleData} disabled={!info.summary.sampleRecordCount} onChange={(e) => setSampleData(e.target.checked)}>{t('appPackage.import.withSamples')}</Checkbox>
            </>
          )}
        </Space>
      )}
    </Modal>
  );
}
