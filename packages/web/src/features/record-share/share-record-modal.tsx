import { useState } from 'react';
import { App, Button, Empty, Flex, Form, Input, List, Modal, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { CopyOutlined, LinkOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { recordShareApi, recordShareKeys } from './record-share-api.ts';
import { formatDateTime } from '../../lib/date-format.ts';

/** The expiries offered, in hours (null: until revoked). */
const EXPIRIES = [24, 24 * 7, 24 * 30, null] as const;

const absolute = (path: string) => new URL(path, window.location.origin).toString();

/**
 * 分享 on an open record (issue 19, ExternalShare): a read-only link for people without an account, with an expiry
 * and an optional password; the record's open links with copy, short link and 取消分享 (refused at once).
 */
export function ShareRecordModal({ schemaCode, objectId, open, onClose }: { schemaCode: string; objectId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const key = recordShareKeys.shares(schemaCode, objectId);
  const [expires, setExpires] = useState<number | null>(24 * 7);
  const [password, setPassword] = useState('');
  const shares = useQuery({ queryKey: key, queryFn: () => recordShareApi.shares(schemaCode, objectId), enabled: open });
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: () => recordShareApi.share({ schemaCode, objectId, expiresInHours: expires, password: password || null }),
    onSuccess: async ({ share }) => {
      setPassword('');
      await refresh();
      void copy(absolute(share.path));
    },
  });
  const revoke = useMutation({ mutationFn: (id: string) => recordShareApi.revokeShare(id), onSuccess: () => void refresh().then(() => message.success(t('externalForm.share.revoked'))) });
  const copy = (text: string) => navigator.clipboard?.writeText(text).then(() => message.success(t('externalForm.copied')));
  const copyShort = async (share: contracts.RecordShareDto) => void copy(absolute((await recordShareApi.shortLink(share.path)).url));
  const expiryText = (share: contracts.RecordShareDto) =>
    share.expiresAt ? t('externalForm.share.until', { time: formatDateTime(share.expiresAt) }) : t('externalForm.share.forever');

  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('externalForm.share.title')} width={640} destroyOnHidden>
      <Flex vertical gap="middle">
        <Typography.Text type="secondary">{t('externalForm.share.intro')}</Typography.Text>
        <Form layout="inline" onFinish={() => create.mutate()} aria-label={t('externalForm.share.title')}>
          <Form.Item label={t('externalForm.share.expiry')}>
            <Select style={{ width: 120 }} aria-label={t('externalForm.share.expiry')} value={expires ?? 'forever'}
              onChange={(v) => setExpires(v === 'forever' ? null : Number(v))}
              options={EXPIRIES.map((h) => ({ value: h ?? 'forever', label: h === null ? t('externalForm.share.forever') : t('externalForm.share.days', { count: h / 24 }) }))} />
          </Form.Item>
          <Form.Item label={t('externalForm.password')}>
            <Input.Password style={{ width: 160 }} aria-label={t('externalForm.password')} placeholder={t('externalForm.passwordNone')} value={password} maxLength={32} onChange={(e) => setPassword(e.target.value)} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={create.isPending} disabled={password.length > 0 && password.length < 4}>{t('externalForm.share.create')}</Button>
        </Form>
        {shares.data?.shares.length ? (
          <List
            size="small"
            bordered
            dataSource={shares.data.shares}
            renderItem={(share) => (
              <List.Item
                actions={[
                  <Button key="copy" size="small" icon={<CopyOutlined />} onClick={() => void copy(absolute(share.path))}>{t('externalForm.copy')}</Button>,
                  <Button key="short" size="small" icon={<LinkOutlined />} onClick={() => void copyShort(share)}>{t('externalForm.share.short')}</Button>,
                  <Popconfirm key="revoke" title={t('externalForm.share.revokeConfirm')} okText={t('externalForm.share.revoke')} cancelText={t('common.cancel')} onConfirm={() => revoke.mutate(share.id)}>
                    <Button size="small" danger>{t('externalForm.share.revoke')}</Button>
                  </Popconfirm>,
                ]}
              >
                <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
                  <Typography.Text ellipsis style={{ maxWidth: 300 }}>{absolute(share.path)}</Typography.Text>
                  <Space size={4} wrap>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>{expiryText(share)}</Typography.Text>
                    {share.hasPassword && <Tag>{t('externalForm.share.withPassword')}</Tag>}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>{share.createdByName}</Typography.Text>
                  </Space>
                </Space>
              </List.Item>
            )}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('externalForm.share.none')} />
        )}
      </Flex>
    </Modal>
  );
}
