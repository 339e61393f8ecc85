import { useMemo } from 'react';
import { App as AntApp, Button, Flex, Popconfirm, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { qrSvg } from '@tritium/shared/print/qr';
import { formatDateTime } from '../../../lib/date-format.ts';
import { fullLink, type CreatedInvitationLink } from '../api/invitation-link-api.ts';

interface InviteLinkCreatedProps {
  link: CreatedInvitationLink;
  isRevoking: boolean;
  onRevoke: () => Promise<unknown>;
}

/** A link just issued: its address with a copy button, its QR code and its expiry, and the switch to turn it off. */
export function InviteLinkCreated({ link, isRevoking, onRevoke }: InviteLinkCreatedProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const address = fullLink(link.link);
  const qrSource = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(address))}`, [address]);
  const isOff = link.state !== 'active';

  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      void message.success(t('orgAdmin.inviteLink.copied'));
    } catch {
      void message.error(t('orgAdmin.inviteLink.copyFailed'));
    }
  };

  return (
    <Flex gap="large" align="flex-start" wrap>
      <img src={qrSource} alt={t('orgAdmin.inviteLink.qrCode')} width={160} height={160} style={{ opacity: isOff ? 0.3 : 1 }} />
      <Flex vertical gap="small" style={{ flex: 1, minWidth: 240 }}>
        <Typography.Text code aria-label={t('orgAdmin.inviteLink.address')} style={{ wordBreak: 'break-all' }} delete={isOff}>
          {address}
        </Typography.Text>
        <Typography.Text type="secondary">
          {isOff ? t('orgAdmin.inviteLink.turnedOff') : t('orgAdmin.inviteLink.expiresAt', { time: formatDateTime(link.expiresTime) })}
        </Typography.Text>
        <Typography.Text type="secondary">{t('orgAdmin.inviteLink.shownOnce')}</Typography.Text>
        <Flex gap="small" wrap>
          <Button type="primary" icon={<CopyOutlined />} disabled={isOff} onClick={handleCopy}>
            {t('orgAdmin.inviteLink.copy')}
          </Button>
          <Popconfirm title={t('orgAdmin.inviteLink.revokeConfirm')} okButtonProps={{ danger: true }} onConfirm={onRevoke} disabled={isOff}>
            <Button danger disabled={isOff} loading={isRevoking}>
              {t('orgAdmin.inviteLink.revoke')}
            </Button>
          </Popconfirm>
        </Flex>
      </Flex>
    </Flex>
  );
}
