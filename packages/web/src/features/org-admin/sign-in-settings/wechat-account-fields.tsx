import { Form, Radio, Typography } from 'antd';
import { contracts } from '@tritium/shared';
import { useTranslation } from 'react-i18next';
import { SecretInput } from '../notification-channels/secret-input.tsx';
import type { ChatSettingDto } from './sso-api.ts';

/** WeChat's choice of scan (decision 0097): the open platform's website login or the engine's official account. */
export function WechatMethodField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="wechatMethod" label={t('signInSettings.wechat.method')}>
      <Radio.Group
        optionType="button"
        options={contracts.WechatScanMethod.options.map((method) => ({ value: method, label: t(`signInSettings.wechat.methods.${method}`) }))}
      />
    </Form.Item>
  );
}

/**
 * The official account's server configuration: the address WeChat pushes scans to (to copy into the account's
 * console), its Token and, for safe mode, its EncodingAESKey — both write-only.
 */
export function WechatAccountFields({ setting }: { setting: ChatSettingDto }) {
  const { t } = useTranslation();
  const keepHint = setting.hasCallbackKeys ? t('notificationChannels.keepHint') : undefined;
  return (
    <>
      <Form.Item label={t('signInSettings.wechat.pushUrl')} extra={t('signInSettings.wechat.pushUrlHint')}>
        <Typography.Text copyable code data-testid="wechat-push-url">
          {setting.callbackUrl}
        </Typography.Text>
      </Form.Item>
      <Form.Item name="callbackToken" label={t('signInSettings.wechat.token')} extra={keepHint} rules={[{ pattern: contracts.WECHAT_PUSH_TOKEN_PATTERN, message: t('signInSettings.wechat.tokenInvalid') }]}>
        <SecretInput isSet={setting.hasCallbackKeys} />
      </Form.Item>
      <Form.Item name="callbackAesKey" label={t('signInSettings.wechat.aesKey')} extra={setting.hasCallbackAesKey ? t('notificationChannels.keepHint') : undefined} rules={[{ pattern: contracts.CALLBACK_KEY_PATTERNS.wechat, message: t('signInSettings.wechat.aesKeyInvalid') }]}>
        <SecretInput isSet={setting.hasCallbackAesKey} />
      </Form.Item>
    </>
  );
}
