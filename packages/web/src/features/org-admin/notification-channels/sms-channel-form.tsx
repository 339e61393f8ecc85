import { useEffect } from 'react';
import { Button, Flex, Form, Input, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { channelsApi, secretOrUndefined, useSaveChannel, type SmsChannelDto, type SmsChannelSaveBody } from './channels-api.ts';
import { SecretInput } from './secret-input.tsx';
import { TestSend } from './test-send.tsx';

/** The HTTP SMS provider: it receives POST {mobile, content} with the token as a bearer credential. */
export function SmsChannelForm({ sms }: { sms: SmsChannelDto }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SmsChannelSaveBody>();
  useEffect(() => form.setFieldsValue({ ...sms, token: '' }), [sms, form]);
  const save = useSaveChannel((values: SmsChannelSaveBody) => channelsApi.saveSms({ ...values, template: values.template ?? '', token: secretOrUndefined(values.token) }));
  return (
    <Flex vertical gap="middle" style={{ maxWidth: 560 }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('notificationChannels.sms.intro')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ ...sms, token: '' }} onFinish={(values) => save.mutate(values)}>
        <Form.Item name="enabled" label={t('notificationChannels.sms.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="url" label={t('notificationChannels.sms.url')} rules={[{ required: true, type: 'url', message: t('notificationChannels.sms.urlInvalid') }]}>
          <Input placeholder="https://sms.example.com/send" maxLength={2000} />
        </Form.Item>
        <Form.Item name="token" label={t('notificationChannels.sms.token')} extra={sms.hasToken ? t('notificationChannels.keepHint') : undefined}>
          <SecretInput isSet={sms.hasToken} />
        </Form.Item>
        <Form.Item name="template" label={t('notificationChannels.sms.template')} extra={t('notificationChannels.sms.templateHint')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('notificationChannels.save')}
        </Button>
      </Form>
      <TestSend kind="sms" recipientLabel={t('notificationChannels.sms.testTo')} disabled={!sms.configured} />
    </Flex>
  );
}
