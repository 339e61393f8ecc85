import { useEffect, useState } from 'react';
import { Alert, App, Checkbox, Form, Input, Modal, Radio, Select, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { applyServerError } from '../../lib/apply-server-error.ts';
import { templateApi, templateKeys, uploadPicture } from './template-api.ts';

interface PublishValues {
  name: string;
  category: contracts.PublishTemplateBody['category'];
  summary: string;
  scope: 'Engine' | 'Platform';
  withSampleData: boolean;
}

const FIELDS = ['name', 'category', 'summary', 'scope', 'withSampleData', 'pictures'] as const;

/** 发布为模板: the template's words, pictures, scope and sample data, with what checkPublish says blocks it. */
export function PublishTemplateDialog({ app, onClose }: { app: { code: string; displayName: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queries = useQueryClient();
  const [form] = Form.useForm<PublishValues>();
  const [pictures, setPictures] = useState<UploadFile[]>([]);
  const [formError, setFormError] = useState<string>();
  const [isSaving, setSaving] = useState(false);
  const name = Form.useWatch('name', form) ?? app.displayName;
  const scope = Form.useWatch('scope', form) ?? 'Engine';
  const [checkedName, setCheckedName] = useState(name);
  useEffect(() => {
    const timer = setTimeout(() => setCheckedName(name), 400);
    return () => clearTimeout(timer);
  }, [name]);
  const nameToCheck = checkedName.trim().length >= 2 ? checkedName.trim() : undefined;
  const check = useQuery({ queryKey: templateKeys.check(app.code, scope, nameToCheck ?? ''), queryFn: () => templateApi.checkPublish({ appCode: app.code, scope, name: nameToCheck }) });
  const problems = check.data?.problems ?? [];

  const submit = async (values: PublishValues) => {
    setSaving(true);
    setFormError(undefined);
    try {
      const pictureIds = pictures.map((p) => p.response as string | undefined).filter((id): id is string => !!id);
      const result = await templateApi.publish({ appCode: app.code, ...values, pictures: pictureIds });
      void message.success(t('templates.publish.done', { version: result.version }));
      void queries.invalidateQueries({ queryKey: templateKeys.all });
      onClose();
    } catch (error) {
      setFormError(applyServerError(form, error, FIELDS));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      width={600}
      title={t('templates.publish.title', { name: app.displayName })}
      okText={t('templates.publish.submit')}
      okButtonProps={{ disabled: !check.data?.allowed, loading: isSaving }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {problems.length > 0 && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('templates.publish.problems')} description={<ul style={{ margin: 0, paddingInlineStart: 20 }}>{problems.map((p, i) => <li key={i}>{p.message}</li>)}</ul>} />
      )}
      {formError && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={formError} />}
      <Form<PublishValues>
        form={form}
        layout="vertical"
        initialValues={{ name: app.displayName.slice(0, 32), category: '其他', summary: '', scope: 'Engine', withSampleData: false }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item name="name" label={t('templates.publish.name')} rules={[{ required: true, min: 2, max: 32 }]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="category" label={t('templates.publish.category')} rules={[{ required: true }]}>
          <Select options={contracts.TEMPLATE_CATEGORIES.map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        <Form.Item name="summary" label={t('templates.publish.summary')}>
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} placeholder={t('templates.publish.summaryPlaceholder')} />
        </Form.Item>
        <Form.Item label={t('templates.publish.pictures')}>
          <Upload
            listType="picture-card"
            accept={contracts.IMAGE_CONTENT_TYPES.join(',')}
            maxCount={6}
            fileList={pictures}
            onChange={({ fileList }) => setPictures(fileList)}
            customRequest={({ file, onSuccess, onError }) => void uploadPicture(file as File).then((id) => onSuccess?.(id), (e: Error) => onError?.(e))}
          >
            {pictures.length < 6 && (
              <span>
                <UploadOutlined /> {t('templates.publish.upload')}
              </span>
            )}
          </Upload>
        </Form.Item>
        <Form.Item name="scope" label={t('templates.publish.scope')}>
          <Radio.Group options={contracts.TEMPLATE_SCOPES.map((s) => ({ value: s, label: t(`templates.publish.scopes.${s}`) }))} />
        </Form.Item>
        <Form.Item name="withSampleData" valuePropName="checked" style={{ marginBottom: 0 }}>
          <Checkbox>{t('templates.publish.withSampleData')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
