import { useState } from 'react';
import { App, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { ocrApi, ocrKeys, templateApi } from './ocr-api.ts';
import { RecognitionTemplateEditor } from './recognition-template-editor.tsx';

type Template = contracts.RecognitionTemplateDto;

/** A field as sent: an empty pattern is no pattern. */
const tidy = (body: contracts.RecognitionTemplateCreateBody): contracts.RecognitionTemplateCreateBody => ({
  ...body,
  fields: body.fields.map((f) => ({ ...f, anchors: f.anchors ?? [], pattern: f.pattern ? f.pattern : null, minLength: f.minLength ?? null, maxLength: f.maxLength ?? null })),
});

/**
 * /admin/ocr-templates: the recognition templates the OCR control reads pictures with (issue 45, docs/decisions/0125)
 * — the built-in VAT invoice, ID card, business licence and bank card (read-only), and the engine's own, which are
 * created, changed and removed here.
 */
export function RecognitionTemplatesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ocrKeys.templates, queryFn: ocrApi.templates });
  const [editing, setEditing] = useState<{ template: Template | null } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ocrKeys.templates });
  const save = useMutation({
    mutationFn: (body: contracts.RecognitionTemplateCreateBody) => (editing?.template ? templateApi.update(tidy(body)) : templateApi.create(tidy(body))),
    onSuccess: () => {
      void message.success(t('ocr.templates.saved'));
      setEditing(null);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (code: string) => templateApi.remove(code),
    onSuccess: () => {
      void message.success(t('ocr.templates.removed'));
      void refresh();
    },
  });

  const columns = [
    {
      title: t('ocr.templates.name'),
      dataIndex: 'name',
      render: (name: string, row: Template) => (
        <Space size={4}>
          <Typography.Text>{name}</Typography.Text>
          {row.builtIn && <Tag>{t('ocr.designer.builtIn')}</Tag>}
        </Space>
      ),
    },
    { title: t('ocr.templates.code'), dataIndex: 'templateCode' },
    { title: t('ocr.templates.mode'), dataIndex: 'mode', render: (mode: contracts.OcrTemplateMode) => t(`ocr.templates.modes.${mode}`) },
    { title: t('ocr.templates.fields'), key: 'fields', render: (_: unknown, row: Template) => row.fields.map((f) => f.name).join('、') },
    {
      title: t('ocr.templates.actions'),
      key: 'actions',
      width: 150,
      render: (_: unknown, row: Template) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing({ template: row })}>
            {row.builtIn ? t('ocr.templates.view') : t('ocr.templates.edit')}
          </Button>
          {!row.builtIn && (
            <Popconfirm title={t('ocr.templates.removeConfirm', { name: row.name })} okButtonProps={{ danger: true }} onConfirm={() => remove.mutate(row.templateCode)}>
              <Button type="link" size="small" danger>
                {t('ocr.templates.remove')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('ocr.templates.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ template: null })}>
          {t('ocr.templates.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('ocr.templates.intro')}</Typography.Paragraph>
      <Table<Template> rowKey="templateCode" size="middle" loading={list.isLoading} dataSource={list.data?.items ?? []} columns={columns} pagination={false} />
      <RecognitionTemplateEditor open={!!editing} template={editing?.template ?? null} saving={save.isPending} onSave={(body) => save.mutate(body)} onClose={() => setEditing(null)} />
    </Card>
  );
}
