import { Checkbox, Form, Input, Modal, Select, Switch } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { channelsApi, ROBOT_PLATFORMS, secretOrUndefined, type RobotDto, type RobotPlatform } from './channels-api.ts';
import { SecretInput } from './secret-input.tsx';

interface RobotValues {
  name: string;
  platform: RobotPlatform;
  webhookUrl?: string;
  secret?: string;
  clearSecret?: boolean;
  enabled: boolean;
}

/**
 * Adds a robot, or edits one (`robot`): the webhook address and the signing secret are write-only, so on edit they
 * start empty and an empty field keeps what is stored.
 */
export function RobotDialog({ robot, open, onClose, onSaved }: { robot: RobotDto | null; open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RobotValues>();
  const platform = Form.useWatch('platform', form);
  const isEdit = !!robot;
  const save = useMutation({
    mutationFn: (v: RobotValues) =>
      robot
        ? channelsApi.updateRobot({ id: robot.id, name: v.name.trim(), platform: v.platform, enabled: v.enabled, webhookUrl: secretOrUndefined(v.webhookUrl?.trim()), secret: secretOrUndefined(v.secret), clearSecret: v.clearSecret || undefined })
        : channelsApi.addRobot({ name: v.name.trim(), platform: v.platform, enabled: v.enabled, webhookUrl: v.webhookUrl!.trim(), secret: secretOrUndefined(v.secret) }),
    onSuccess: () => {
      onSaved();
      onClose();
    },
  });
  // WeCom robots are not signed: their address alone is the credential.
  const isSigned = platform !== 'wecom';
  return (
    <Modal
      title={isEdit ? t('notificationChannels.robot.edit') : t('notificationChannels.robot.add')}
      open={open}
      okText={t('notificationChannels.save')}
      confirmLoading={save.isPending}
      onOk={() => form.validateFields().then((v) => save.mutate(v), () => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<RobotValues>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={robot ? { name: robot.name, platform: robot.platform, enabled: robot.enabled } : { platform: 'dingtalk', enabled: true }}
      >
        <Form.Item name="name" label={t('notificationChannels.robot.name')} rules={[{ required: true, whitespace: true, message: t('notificationChannels.robot.nameRequired') }, { max: 50 }]}>
          <Input maxLength={50} placeholder={t('notificationChannels.robot.namePlaceholder')} autoFocus />
        </Form.Item>
        <Form.Item name="platform" label={t('notificationChannels.robot.platform')}>
          <Select options={ROBOT_PLATFORMS.map((p) => ({ value: p, label: t(`notificationChannels.platforms.${p}`) }))} />
        </Form.Item>
        <Form.Item
          name="webhookUrl"
          label={t('notificationChannels.robot.webhookUrl')}
          extra={isEdit ? `${robot.webhookUrlMasked} · ${t('notificationChannels.keepHint')}` : undefined}
          rules={[{ required: !isEdit, message: t('notificationChannels.robot.webhookUrlInvalid') }, { type: 'url', message: t('notificationChannels.robot.webhookUrlInvalid') }]}
        >
          <Input.TextArea rows={2} maxLength={2000} placeholder={isEdit ? t('notificationChannels.secretSet') : 'https://'} />
        </Form.Item>
        {isSigned ? (
          <Form.Item name="secret" label={t('notificationChannels.robot.secret')} extra={robot?.hasSecret ? t('notificationChannels.keepHint') : t('notificationChannels.robot.secretHint')}>
            <SecretInput isSet={!!robot?.hasSecret} />
          </Form.Item>
        ) : null}
        {isSigned && robot?.hasSecret ? (
          <Form.Item name="clearSecret" valuePropName="checked">
            <Checkbox>{t('notificationChannels.robot.clearSecret')}</Checkbox>
          </Form.Item>
        ) : null}
        <Form.Item name="enabled" label={t('notificationChannels.robot.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
