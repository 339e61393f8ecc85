import { useState } from 'react';
import { Alert, App, Checkbox, Form, Modal, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { applyServerError } from '../../lib/apply-server-error.ts';
import { templateApi, templateKeys } from './template-api.ts';

interface ShareValues {
  engineCodes: string[];
  toAssociated: boolean;
  withSampleData: boolean;
}

/** 共享给其他组织: named organisations and/or every associated one see the app under 共享给我的. */
export function ShareAppDialog({ app, onClose }: { app: { code: string; displayName: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queries = useQueryClient();
  const [form] = Form.useForm<ShareValues>();
  const [formError, setFormError] = useState<string>();
  const [isSaving, setSaving] = useState(false);
  const submit = async (values: ShareValues) => {
    setSaving(true);
    setFormError(undefined);
    try {
      const result = await templateApi.share({ appCode: app.code, engineCodes: values.engineCodes.map((c) => c.trim().toLowerCase()), toAssociated: values.toAssociated, withSampleData: values.withSampleData });
      void message.success(t('templates.share.done', { names: result.sharedWith.map((s) => s.engineName).join('、') }));
      void queries.invalidateQueries({ queryKey: templateKeys.all });
      onClose();
    } catch (error) {
      setFormError(applyServerError(form, error, ['engineCodes', 'toAssociated', 'withSampleData']));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={t('templates.share.title', { name: app.displayName })} okText={t('templates.share.submit')} okButtonProps={{ loading: isSaving }} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden>
      {formError && <Alert type="error" showIcon style={{ marginBottom: 16 }} title={formError} />}
      <Form<ShareValues> form={form} layout="vertical" initialValues={{ engineCodes: [], toAssociated: false, withSampleData: false }} onFinish={(values) => void submit(values)}>
        <Form.Item name="engineCodes" label={t('templates.share.engineCodes')} extra={<Typography.Text type="secondary">{t('templates.share.engineCodesHelp')}</Typography.Text>}>
          <Select mode="tags" open={false} tokenSeparators={[',', '，', ' ']} aria-label={t('templates.share.engineCodes')} />
        </Form.Item>
        <Form.Item name="toAssociated" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox>{t('templates.share.toAssociated')}</Checkbox>
        </Form.Item>
        <Form.Item name="withSampleData" valuePropName="checked" style={{ marginBottom: 0 }}>
          <Checkbox>{t('templates.share.withSampleData')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
