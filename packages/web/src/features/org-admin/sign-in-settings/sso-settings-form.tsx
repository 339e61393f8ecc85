import { useEffect } from 'react';
import { App, Button, Flex, Form, Input, Radio, Switch, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { SecretInput } from '../notification-channels/secret-input.tsx';
import { secretOrUndefined } from '../notification-channels/channels-api.ts';
import { SSO_MATCH_BY, SSO_PROTOCOLS, ssoApi, ssoKeys, type SsoSettingDto, type SsoSettingSaveBody } from './sso-api.ts';
import { SamlSettingsFields } from './saml-settings-fields.tsx';

type FormValues = Omit<SsoSettingSaveBody, 'saml'> & { saml: SsoSettingDto['saml'] };

/**
 * What is sent: the fields of the save body only, from the whole form (the other protocol's fields, not shown, keep
 * their values). SAML's settings go with SAML only, so that OpenID Connect can be saved without them.
 */
function bodyOf(values: FormValues): SsoSettingSaveBody {
  const { protocol, enabled, issuerUrl, clientId, clientSecret, scopes, matchBy, claim, createUsers, callbackUrl, saml } = values;
  return {
    protocol,
    enabled,
    issuerUrl: issuerUrl ?? '',
    clientId: clientId ?? '',
    clientSecret: secretOrUndefined(clientSecret),
    scopes: scopes ?? '',
    matchBy,
    claim: claim ?? '',
    createUsers,
    callbackUrl,
    ...(protocol === 'saml' ? { saml } : {}),
  };
}

/** The identity provider (OpenID Connect or SAML 2.0), how its people are matched, and the addresses to register. */
export function SsoSettingsForm({ setting }: { setting: SsoSettingDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const initial: FormValues = { ...setting, clientSecret: '', callbackUrl: setting.callbackUrl || setting.suggestedCallbackUrl };
  useEffect(() => form.setFieldsValue({ ...setting, clientSecret: '', callbackUrl: setting.callbackUrl || setting.suggestedCallbackUrl }), [setting, form]);
  const matchBy = Form.useWatch('matchBy', form) ?? setting.matchBy;
  const protocol = Form.useWatch('protocol', form) ?? setting.protocol;
  const callbackUrl = Form.useWatch('callbackUrl', form) ?? initial.callbackUrl;
  const saml = protocol === 'saml';
  const defaultClaim = saml ? contracts.SAML_DEFAULT_ATTRIBUTES[matchBy] : contracts.SSO_DEFAULT_CLAIMS[matchBy];
  const save = useMutation({
    mutationFn: () => ssoApi.save(bodyOf(form.getFieldsValue(true) as FormValues)),
    onSuccess: (result) => {
      queryClient.setQueryData(ssoKeys.setting, result);
      void message.success(t('signInSettings.saved'));
    },
  });
  const copy = () => {
    void navigator.clipboard?.writeText(callbackUrl).then(() => message.success(t('signInSettings.sso.copied')));
  };
  return (
    <Flex vertical gap="middle" style={{ maxWidth: 600 }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('signInSettings.sso.intro')}
      </Typography.Paragraph>
      <Form form={form} name="sso" layout="vertical" initialValues={initial} onFinish={() => save.mutate()}>
        <Form.Item name="enabled" label={t('signInSettings.sso.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="protocol" label={t('signInSettings.sso.protocol')}>
          <Radio.Group optionType="button" options={SSO_PROTOCOLS.map((value) => ({ value, label: t(`signInSettings.sso.protocols.${value}`) }))} />
        </Form.Item>
        {saml ? (
          <SamlSettingsFields setting={setting} />
        ) : (
          <>
            <Form.Item name="issuerUrl" label={t('signInSettings.sso.issuerUrl')} extra={t('signInSettings.sso.issuerUrlHint')} rules={[{ required: true, type: 'url', message: t('signInSettings.sso.urlInvalid') }]}>
              <Input placeholder="https://id.example.com/realms/acme" maxLength={2000} />
            </Form.Item>
            <Form.Item name="clientId" label={t('signInSettings.sso.clientId')} rules={[{ required: true, whitespace: true, message: t('signInSettings.sso.clientIdRequired') }]}>
              <Input maxLength={255} autoComplete="off" />
            </Form.Item>
            <Form.Item name="clientSecret" label={t('signInSettings.sso.clientSecret')} extra={setting.hasClientSecret ? t('notificationChannels.keepHint') : undefined}>
              <SecretInput isSet={setting.hasClientSecret} />
            </Form.Item>
            <Form.Item name="scopes" label={t('signInSettings.sso.scopes')} extra={t('signInSettings.sso.scopesHint')}>
              <Input maxLength={500} />
            </Form.Item>
          </>
        )}
        <Form.Item name="matchBy" label={t('signInSettings.sso.matchBy')}>
          <Radio.Group options={SSO_MATCH_BY.map((value) => ({ value, label: t(`signInSettings.sso.match.${value}`) }))} />
        </Form.Item>
        <Form.Item
          name="claim"
          label={t(saml ? 'signInSettings.sso.attribute' : 'signInSettings.sso.claim')}
          extra={t(saml ? 'signInSettings.sso.attributeHint' : 'signInSettings.sso.claimHint', { claim: defaultClaim })}
        >
          <Input placeholder={defaultClaim} maxLength={200} />
        </Form.Item>
        <Form.Item name="createUsers" label={t('signInSettings.sso.createUsers')} extra={t(saml ? 'signInSettings.sso.samlCreateUsersHint' : 'signInSettings.sso.createUsersHint')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item label={t('signInSettings.sso.callbackUrl')} extra={t('signInSettings.sso.callbackUrlHint')} hidden={saml}>
          <Flex gap="small">
            <Form.Item name="callbackUrl" noStyle rules={[{ required: true, type: 'url', message: t('signInSettings.sso.urlInvalid') }]}>
              <Input aria-label={t('signInSettings.sso.callbackUrl')} maxLength={2000} />
            </Form.Item>
            <Button onClick={copy}>{t('signInSettings.sso.copy')}</Button>
          </Flex>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('signInSettings.save')}
        </Button>
      </Form>
    </Flex>
  );
}
