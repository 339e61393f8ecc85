/** 手机签名: a one-use link shown as a QR code; the dialog waits for the phone's signature and hands it to the field. */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Flex, Modal, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { qrSvg } from '@tritium/shared/print/qr';
import type { FileRef } from '@tritium/shared/controls/values';
import { formatTime } from '../../../lib/date-format.ts';
import { phoneSignApi, SIGN_STATE_POLL_MS, type CreateSignLinkBody, type CreatedSignLink } from '../api/phone-sign-api.ts';

interface PhoneSignDialogProps {
  open: boolean;
  target: CreateSignLinkBody;
  onClose: () => void;
  onSigned: (file: FileRef) => void;
}

export const fullSignLink = (path: string) => `${window.location.origin}${path}`;

function LinkWaiting({ link, onSigned, onRenew }: { link: CreatedSignLink; onSigned: (file: FileRef) => void; onRenew: () => void }) {
  const { t } = useTranslation();
  const address = fullSignLink(link.link);
  const qrSource = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(address))}`, [address]);
  const state = useQuery({
    queryKey: ['phone-sign-state', link.token],
    queryFn: () => phoneSignApi.state(link.token),
    refetchInterval: (query) => (!query.state.data || query.state.data.state === 'waiting' ? SIGN_STATE_POLL_MS : false),
    gcTime: 0,
  });
  const handed = useRef(false);
  const current = state.data;
  useEffect(() => {
    if (current?.state !== 'signed' || !current.file || handed.current) return;
    handed.current = true;
    onSigned(current.file);
  }, [current, onSigned]);

  const expired = current?.state === 'expired';
  return (
    <Flex vertical align="center" gap="small">
      <img src={qrSource} alt={t('formRuntimeFields.sign.phoneQr')} width={200} height={200} style={{ opacity: expired ? 0.3 : 1 }} />
      <Typography.Text code aria-label={t('formRuntimeFields.sign.phoneLink')} style={{ wordBreak: 'break-all' }}>
        {address}
      </Typography.Text>
      {expired ? (
        <Alert type="warning" showIcon title={t('formRuntimeFields.sign.phoneExpired')} action={<Button onClick={onRenew}>{t('formRuntimeFields.sign.phoneRenew')}</Button>} />
      ) : (
        <Typography.Text type="secondary" role="status">
          {current?.state === 'signed' ? t('formRuntimeFields.sign.phoneSigned') : t('formRuntimeFields.sign.phoneWaiting', { time: formatTime(link.expiresTime) })}
        </Typography.Text>
      )}
    </Flex>
  );
}

function PhoneSignBody({ target, onSigned }: Pick<PhoneSignDialogProps, 'target' | 'onSigned'>) {
  const { t } = useTranslation();
  const [round, setRound] = useState(0);
  const created = useQuery({
    queryKey: ['phone-sign-link', target.schemaCode, target.controlCode, target.objectId ?? null, round],
    queryFn: () => phoneSignApi.create(target),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  if (created.isError) {
    return <Alert type="error" showIcon title={created.error.message} action={<Button onClick={() => setRound((n) => n + 1)}>{t('formRuntimeFields.sign.phoneRenew')}</Button>} />;
  }
  if (!created.data) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  return <LinkWaiting key={created.data.token} link={created.data} onSigned={onSigned} onRenew={() => setRound((n) => n + 1)} />;
}

export function PhoneSignDialog({ open, target, onClose, onSigned }: PhoneSignDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('formRuntimeFields.sign.phoneTitle')} onCancel={onClose} destroyOnHidden width={420} footer={null}>
      <Typography.Paragraph type="secondary">{t('formRuntimeFields.sign.phoneHint')}</Typography.Paragraph>
      <PhoneSignBody target={target} onSigned={onSigned} />
    </Modal>
  );
}
