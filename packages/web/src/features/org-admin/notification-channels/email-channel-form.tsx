import { useEffect } from 'react';
import { Button, Flex, Form, Input, InputNumber, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { channelsApi, secretOrUndefined, useSaveChannel, type EmailChannelDto, type EmailChannelSaveBody } from './channels-api.ts';
import { SecretInput } from './secret-input.tsx';
import { TestSend } from './test-send.tsx';

/** The SMTP server the engine's notification mail goes out through. */
export function EmailChannelForm({ email }: { email: EmailChannelDto }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EmailChannelSaveBody>();
  useEffect(() => form.setFieldsValue({ ...email, password: '' }), [email, form]);
  const save = useSaveChannel((values: EmailChannelSaveBody) => channelsApi.saveEmail({ ...values, password: secretOrUndefined(values.password) }));
  return (
    <Flex vertical gap="middle" style={{ maxWidth: 560 }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('notificationChannels.email.intro')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ ...email, password: '' }} onFinish={(values) => save.mutate(values)}>
        <Form.Item name="enabled" label={t('notificationChannels.email.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Flex gap="middle">
          <Form.Item name="host" label={t('notificationChannels.email.host')} rules={[{ required: true, whitespace: true, message: t('notificationChannels.email.hostRequired') }]} style={{ flex: 1 }}>
            <Input placeholder="smtp.example.com" maxLength={255} />
          </Form.Item>
          <Form.Item name="port" label={t('notificationChannels.email.port')} rules={[{ required: true, message: t('notificationChannels.email.portRequired') }]}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: 120 }} />
          </Form.Item>
        </Flex>
        <Form.Item name="secure" label={t('notificationChannels.email.secure')} valuePropName="checked" extra={t('notificationChannels.email.secureHint')}>
          <Switch />
        </Form.Item>
        <Form.Item name="user" label={t('notificationChannels.email.user')}>
          <Input autoComplete="off" maxLength={255} />
        </Form.Item>
        <Form.Item name="password" label={t('notificationChannels.email.password')} extra={email.hasPassword ? t('notificationChannels.keepHint') : undefined}>
          <SecretInput isSet={email.hasPassword} />
        </Form.Item>
        <Flex gap="middle">
          <Form.Item name="fromAddress" label={t('notificationChannels.email.fromAddress')} rules={[{ required: true, type: 'email', message: t('notificationChannels.email.fromAddressInvalid') }]} style={{ flex: 1 }}>
            <Input placeholder="noreply@example.com" maxLength={255} />
          </Form.Item>
          <Form.Item name="fromName" label={t('notificationChannels.email.fromName')} style={{ flex: 1 }}>
            <Input maxLength={100} />
          </Form.Item>
        </Flex>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('notificationChannels.save')}
        </Button>
      </Form>
      <TestSend kind="email" recipientLabel={t('notificationChannels.email.testTo')} disabled={!email.configured} />
    </Flex>
  );
}
