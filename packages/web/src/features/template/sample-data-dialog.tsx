import { App, Button, List, Modal, Skeleton, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { templateApi, templateKeys } from './template-api.ts';

/** 示例数据: how many sample records the app holds (from its template), and 清除示例数据 after a confirmation. */
export function SampleDataDialog({ app, onClose }: { app: { code: string; displayName: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queries = useQueryClient();
  const samples = useQuery({ queryKey: templateKeys.samples(app.code), queryFn: () => templateApi.sampleData(app.code) });
  const clear = useMutation({
    mutationFn: () => templateApi.clearSampleData(app.code),
    onSuccess: ({ removed }) => {
      void message.success(t('templates.sample.cleared', { count: removed }));
      // The app's lists and dashboards show other numbers now.
      void queries.invalidateQueries();
    },
  });
  const total = samples.data?.total ?? 0;
  const confirmClear = () =>
    modal.confirm({ title: t('templates.sample.clear'), content: t('templates.sample.clearConfirm', { count: total }), okButtonProps: { danger: true }, onOk: () => clear.mutateAsync() });
  return (
    <Modal
      open
      title={t('templates.sample.title', { name: app.displayName })}
      onCancel={onClose}
      footer={[
        <Button key="clear" danger icon={<DeleteOutlined />} disabled={total === 0} loading={clear.isPending} onClick={confirmClear}>
          {t('templates.sample.clear')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('templates.install.close')}
        </Button>,
      ]}
    >
      {!samples.data ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : total === 0 ? (
        <Typography.Paragraph>{t('templates.sample.none')}</Typography.Paragraph>
      ) : (
        <>
          <Typography.Paragraph>{t('templates.sample.total', { count: total })}</Typography.Paragraph>
          <List size="small" bordered dataSource={samples.data.forms} renderItem={(f) => <List.Item>{t('templates.sample.form', { name: f.displayName, count: f.count })}</List.Item>} />
        </>
      )}
    </Modal>
  );
}
