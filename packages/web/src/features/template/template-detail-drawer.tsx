import { useState } from 'react';
import { App, Button, Checkbox, Descriptions, Drawer, Flex, Image, List, Skeleton, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { templateApi, templateKeys, type TemplateDto } from './template-api.ts';
import { TemplatePicture } from './template-picture.tsx';

interface TemplateDetailDrawerProps {
  template: TemplateDto | null;
  onInstalling: (actionId: string, template: TemplateDto) => void;
  onClose: () => void;
}

/** A template's detail: pictures of its screens, the forms it holds with their sample counts, 安装 with or without them. */
export function TemplateDetailDrawer({ template, onInstalling, onClose }: TemplateDetailDrawerProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queries = useQueryClient();
  const [withSampleData, setWithSampleData] = useState(true);
  const info = useQuery({ queryKey: templateKeys.info(template?.id ?? ''), queryFn: () => templateApi.info(template!.id), enabled: !!template });
  const install = useMutation({
    mutationFn: () => templateApi.install({ templateId: template!.id, withSampleData }),
    onSuccess: ({ actionId }) => onInstalling(actionId, template!),
  });
  const remove = useMutation({
    mutationFn: () => templateApi.remove(template!.id),
    onSuccess: () => {
      void message.success(t('templates.detail.removed'));
      void queries.invalidateQueries({ queryKey: templateKeys.all });
      onClose();
    },
  });
  const data = info.data;
  const confirmRemove = () =>
    modal.confirm({ title: t('templates.detail.remove'), content: t('templates.detail.removeConfirm', { name: template!.name }), okButtonProps: { danger: true }, onOk: () => remove.mutateAsync() });
  return (
    <Drawer
      open={!!template}
      size={560}
      title={template?.name ?? t('templates.detail.title')}
      onClose={onClose}
      footer={
        <Flex justify="space-between" align="center">
          <Checkbox checked={withSampleData} onChange={(e) => setWithSampleData(e.target.checked)} disabled={!data?.sampleCount}>
            {t('templates.detail.withSampleData')}
          </Checkbox>
          <Flex gap="small">
            {data?.isMine && (
              <Button danger loading={remove.isPending} onClick={confirmRemove}>
                {t('templates.detail.remove')}
              </Button>
            )}
            <Button type="primary" loading={install.isPending} disabled={!data} onClick={() => install.mutate()}>
              {t('templates.detail.install')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      {!data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Flex vertical gap="large">
          <Flex vertical gap={4}>
            <Flex gap={4} wrap>
              <Tag>{data.category}</Tag>
              <Tag>{t('templates.card.version', { version: data.version })}</Tag>
              {data.builtIn && <Tag color="blue">{t('templates.card.builtIn')}</Tag>}
              {data.isSharedToMe && <Tag color="purple">{t('templates.card.shared')}</Tag>}
            </Flex>
            <Typography.Text type="secondary">{data.builtIn ? t('templates.detail.builtInPublisher') : t('templates.detail.publisher', { name: data.publisherName ?? '--' })}</Typography.Text>
            <Typography.Paragraph style={{ margin: 0 }}>{data.summary || '--'}</Typography.Paragraph>
            {data.sharedWith.length > 0 && <Typography.Text type="secondary">{t('templates.detail.sharedWith', { names: data.sharedWith.map((s) => s.engineName).join('、') })}</Typography.Text>}
          </Flex>
          <section aria-label={t('templates.detail.pictures')}>
            <Typography.Title level={5}>{t('templates.detail.pictures')}</Typography.Title>
            {data.pictures.length === 0 ? (
              <Typography.Text type="secondary">{t('templates.detail.noPictures')}</Typography.Text>
            ) : (
              <Image.PreviewGroup>
                <Flex gap="small" wrap>
                  {data.pictures.map((path, index) => (
                    <TemplatePicture key={path} path={path} alt={`${data.name} ${index + 1}`} />
                  ))}
                </Flex>
              </Image.PreviewGroup>
            )}
          </section>
          <section aria-label={t('templates.detail.forms')}>
            <Typography.Title level={5}>{t('templates.detail.forms')}</Typography.Title>
            <List
              size="small"
              bordered
              dataSource={data.forms}
              renderItem={(form) => (
                <List.Item extra={form.sampleCount > 0 ? <Typography.Text type="secondary">{t('templates.detail.formSamples', { count: form.sampleCount })}</Typography.Text> : null}>{form.name}</List.Item>
              )}
            />
          </section>
          {data.description && (
            <Descriptions column={1} size="small" items={[{ key: 'description', label: t('templates.detail.description'), children: <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{data.description}</Typography.Paragraph> }]} />
          )}
        </Flex>
      )}
    </Drawer>
  );
}
