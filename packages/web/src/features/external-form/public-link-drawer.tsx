import { useEffect, useState } from 'react';
import { Alert, App, Button, Checkbox, DatePicker, Drawer, Flex, Form, Input, InputNumber, Popconfirm, Switch, Tabs, Typography } from 'antd';
import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { UserPicker, type PickedUnit } from '../../components/org-picker/index.ts';
import { externalFormApi, externalFormKeys } from './external-form-api.ts';
import { OpenQueryPanel, type LinkField } from './open-query-panel.tsx';

interface Settings {
  enabled: boolean;
  password: string;
  removePassword: boolean;
  expiresAt: Dayjs | null;
  maxSubmissions: number | null;
  owner: PickedUnit | null;
}

/**
 * 公开填报 (issue 19, ExternalForm): the form's public link — on or off, password, closing time, cap, owner, address;
 * beside it, 公开查询 (OpenQuery).
 */
export function PublicLinkDrawer({ schemaCode, formName, fields, onClose }: { schemaCode: string; formName: string; fields: LinkField[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const query = useQuery({ queryKey: externalFormKeys.link(schemaCode), queryFn: () => externalFormApi.get(schemaCode) });
  const link = query.data?.link ?? null;
  const [s, setS] = useState<Settings>({ enabled: true, password: '', removePassword: false, expiresAt: null, maxSubmissions: null, owner: null });
  useEffect(() => {
    if (link) setS({ enabled: link.enabled, password: '', removePassword: false, expiresAt: link.expiresAt ? dayjs(link.expiresAt) : null, maxSubmissions: link.maxSubmissions, owner: { id: link.ownerId, name: link.ownerName } });
  }, [link]);
  const done = (result: { link: unknown }) => {
    client.setQueryData(externalFormKeys.link(schemaCode), result);
    void message.success(t('externalForm.saved'));
  };
  const save = useMutation({
    mutationFn: () =>
      externalFormApi.save({
        schemaCode,
        enabled: s.enabled,
        ...(s.removePassword ? { password: null } : s.password ? { password: s.password } : {}),
        expiresAt: s.expiresAt ? s.expiresAt.toISOString() : null,
        maxSubmissions: s.maxSubmissions,
        ownerId: s.owner?.id ?? '',
      }),
    onSuccess: done,
  });
  const reset = useMutation({ mutationFn: () => externalFormApi.reset(schemaCode), onSuccess: done });
  const url = link ? new URL(link.path, window.location.origin).toString() : '';
  const fill = (
      <Flex vertical gap="middle">
        <Alert type="info" showIcon title={t('externalForm.intro')} />
        {link ? (
          <Flex vertical gap={4}>
            <Typography.Text strong>{t('externalForm.link')}</Typography.Text>
            <Flex gap="small">
              <Input readOnly value={url} aria-label={t('externalForm.link')} />
              <Button icon={<CopyOutlined />} aria-label={t('externalForm.copy')} onClick={() => void navigator.clipboard?.writeText(url).then(() => message.success(t('externalForm.copied')))} />
              <Popconfirm title={t('externalForm.resetConfirm')} onConfirm={() => reset.mutate()}>
                <Button icon={<ReloadOutlined />} loading={reset.isPending}>{t('externalForm.reset')}</Button>
              </Popconfirm>
            </Flex>
            <Typography.Text type="secondary">{t('externalForm.submissions', { count: link.submissions })}</Typography.Text>
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('externalForm.notCreated')}</Typography.Text>
        )}
        <Form layout="vertical" component={false}>
          <Form.Item label={t('externalForm.enabled')}>
            <Switch aria-label={t('externalForm.enabled')} checked={s.enabled} onChange={(enabled) => setS({ ...s, enabled })} />
          </Form.Item>
          <Form.Item label={t('externalForm.owner')} required>
            <UserPicker value={s.owner} onChange={(owner) => setS({ ...s, owner })} aria-label={t('externalForm.owner')} />
          </Form.Item>
          <Form.Item label={t('externalForm.password')} extra={link?.hasPassword ? t('externalForm.passwordKeep') : t('externalForm.passwordNone')}>
            <Flex gap="small" align="center">
              <Input.Password aria-label={t('externalForm.password')} maxLength={32} value={s.password} disabled={s.removePassword} onChange={(e) => setS({ ...s, password: e.target.value })} />
              {link?.hasPassword && (
                <Checkbox style={{ whiteSpace: 'nowrap' }} checked={s.removePassword} onChange={(e) => setS({ ...s, removePassword: e.target.checked })}>
                  {t('externalForm.removePassword')}
                </Checkbox>
              )}
            </Flex>
          </Form.Item>
          <Flex gap="middle" wrap>
            <Form.Item label={t('externalForm.expiresAt')}>
              <DatePicker showTime aria-label={t('externalForm.expiresAt')} value={s.expiresAt} onChange={(expiresAt) => setS({ ...s, expiresAt })} />
            </Form.Item>
            <Form.Item label={t('externalForm.maxSubmissions')}>
              <InputNumber aria-label={t('externalForm.maxSubmissions')} min={1} precision={0} placeholder={t('externalForm.unlimited')} value={s.maxSubmissions} onChange={(v) => setS({ ...s, maxSubmissions: v ?? null })} />
            </Form.Item>
          </Flex>
        </Form>
        <Button type="primary" disabled={!s.owner} loading={save.isPending} onClick={() => save.mutate()}>{t('externalForm.save')}</Button>
      </Flex>
  );
  return (
    <Drawer open onClose={onClose} width={560} title={t('externalForm.title', { name: formName })}>
      <Tabs items={[
        { key: 'fill', label: t('externalForm.entry'), children: fill },
        { key: 'query', label: t('externalForm.query.tab'), children: <OpenQueryPanel schemaCode={schemaCode} fields={fields} /> },
      ]} />
    </Drawer>
  );
}
