import { Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import type { SsoSettingDto } from './sso-api.ts';

// SAML 2.0 (docs/decisions/0087): the identity provider's address, entity ID and signing certificate, this platform's
// entity ID and NameID format; and what to register with the provider — the assertion consumer address and the
// metadata (to copy, or to download as a file).

const urlRule = (message: string) => ({ required: true, type: 'url' as const, message });

export function SamlSettingsFields({ setting }: { setting: SsoSettingDto }) {
  const { t } = useTranslation();
  const required = (message: string) => ({ required: true, whitespace: true, message });
  return (
    <>
      <Form.Item label={t('signInSettings.sso.saml.acsUrl')} extra={t('signInSettings.sso.saml.acsUrlHint')}>
        <Typography.Text copyable data-testid="saml-acs-url">
          {setting.samlAcsUrl}
        </Typography.Text>
      </Form.Item>
      <Form.Item label={t('signInSettings.sso.saml.metadataUrl')} extra={t('signInSettings.sso.saml.metadataUrlHint')}>
        <Typography.Text copyable data-testid="saml-metadata-url">
          {setting.samlMetadataUrl}
        </Typography.Text>{' '}
        <Typography.Link href={setting.samlMetadataUrl} download>
          {t('signInSettings.sso.saml.download')}
        </Typography.Link>
      </Form.Item>
      <Form.Item name={['saml', 'entryPoint']} label={t('signInSettings.sso.saml.entryPoint')} rules={[urlRule(t('signInSettings.sso.urlInvalid'))]}>
        <Input placeholder="https://id.example.com/saml/sso" maxLength={2000} />
      </Form.Item>
      <Form.Item name={['saml', 'idpIssuer']} label={t('signInSettings.sso.saml.idpIssuer')} rules={[required(t('signInSettings.sso.saml.idpIssuerRequired'))]}>
        <Input placeholder="https://id.example.com/saml/metadata" maxLength={1000} />
      </Form.Item>
      <Form.Item name={['saml', 'idpCert']} label={t('signInSettings.sso.saml.idpCert')} extra={t('signInSettings.sso.saml.idpCertHint')} rules={[required(t('signInSettings.sso.saml.idpCertRequired'))]}>
        <Input.TextArea rows={4} placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'} maxLength={20_000} style={{ fontFamily: 'monospace', fontSize: 12 }} />
      </Form.Item>
      <Form.Item name={['saml', 'spEntityId']} label={t('signInSettings.sso.saml.spEntityId')} extra={t('signInSettings.sso.saml.spEntityIdHint')} rules={[required(t('signInSettings.sso.saml.spEntityIdRequired'))]}>
        <Input maxLength={1000} />
      </Form.Item>
      <Form.Item name={['saml', 'nameIdFormat']} label={t('signInSettings.sso.saml.nameIdFormat')}>
        <Select options={contracts.SamlNameIdFormat.options.map((value) => ({ value, label: value.replace(/^urn:oasis:names:tc:SAML:\d\.\d:nameid-format:/, '') }))} />
      </Form.Item>
    </>
  );
}
