import { useState } from 'react';
import { Alert, Button, Flex, Modal, Popconfirm, Table, Tag, Typography } from 'antd';
import { LinkOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { associatedOrgApi, associatedOrgKeys, fullLink, type AssociatedOrgDto } from './associated-org-api.ts';
import { AssociatedMembersDialog } from './associated-members-dialog.tsx';
import { formatDateTime as when } from '../../../lib/date-format.ts';

const VALID_DAYS = 7;

function StateTag({ association }: { association: AssociatedOrgDto }) {
  const { t } = useTranslation();
  if (association.state === 'active') return <Tag color="green">{t('associatedOrg.state.active')}</Tag>;
  if (association.state === 'ended') return <Tag>{t('associatedOrg.state.ended')}</Tag>;
  return association.isExpired ? <Tag>{t('associatedOrg.state.expired')}</Tag> : <Tag color="blue">{t('associatedOrg.state.pending')}</Tag>;
}

/**
 * /admin/associated-org (关联组织): links this organisation issued, and the associations it takes part in on either
 * side — as host (the partner's people are its external users) or as partner (its people work in the host).
 */
export function AssociatedOrgPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: associatedOrgKeys.list, queryFn: associatedOrgApi.list });
  const [shown, setShown] = useState<AssociatedOrgDto | null>(null);
  const [membersOf, setMembersOf] = useState<AssociatedOrgDto | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: associatedOrgKeys.list });
  const create = useMutation({
    mutationFn: () => associatedOrgApi.createLink(VALID_DAYS),
    onSuccess: (created) => {
      setShown(created);
      void refresh();
    },
  });
  const end = useMutation({ mutationFn: associatedOrgApi.end, onSuccess: () => void refresh() });

  const otherName = (a: AssociatedOrgDto) => (a.side === 'host' ? a.partnerEngineName : a.hostEngineName) ?? t('associatedOrg.notAccepted');
  const columns = [
    { title: t('associatedOrg.columns.other'), key: 'other', render: (_: unknown, a: AssociatedOrgDto) => otherName(a) },
    { title: t('associatedOrg.columns.side'), key: 'side', render: (_: unknown, a: AssociatedOrgDto) => (a.side === 'host' ? t('associatedOrg.side.host') : t('associatedOrg.side.partner')) },
    { title: t('associatedOrg.columns.state'), key: 'state', render: (_: unknown, a: AssociatedOrgDto) => <StateTag association={a} /> },
    { title: t('associatedOrg.columns.members'), dataIndex: 'memberCount', key: 'members' },
    { title: t('associatedOrg.columns.time'), key: 'time', render: (_: unknown, a: AssociatedOrgDto) => when(a.acceptedTime ?? a.createdTime) },
    {
      title: t('associatedOrg.columns.actions'),
      key: 'actions',
      render: (_: unknown, a: AssociatedOrgDto) => (
        <Flex gap={4} wrap>
          {a.link && !a.isExpired && (
            <Typography.Text copyable={{ text: fullLink(a.link), tooltips: [t('associatedOrg.copyLink'), t('associatedOrg.copied')] }}>{t('associatedOrg.link')}</Typography.Text>
          )}
          {a.state === 'active' && (
            <Button type="link" size="small" onClick={() => setMembersOf(a)}>
              {a.side === 'partner' ? t('associatedOrg.chooseMembers') : t('associatedOrg.viewMembers')}
            </Button>
          )}
          {a.state !== 'ended' && !(a.state === 'pending' && a.isExpired) && (
            <Popconfirm
              title={a.state === 'active' ? t('associatedOrg.endConfirm', { other: otherName(a) }) : t('associatedOrg.withdrawConfirm')}
              okButtonProps={{ danger: true }}
              onConfirm={() => end.mutateAsync(a.id)}
            >
              <Button type="link" danger size="small" aria-label={t('associatedOrg.endOf', { other: otherName(a) })}>
                {a.state === 'active' ? t('associatedOrg.end') : t('associatedOrg.withdraw')}
              </Button>
            </Popconfirm>
          )}
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap="middle">
      <Flex align="center" justify="space-between">
        <Typography.Title level={4} style={{ margin: 0 }}>
          <LinkOutlined /> {t('associatedOrg.title')}
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} loading={create.isPending} onClick={() => create.mutate()}>
          {t('associatedOrg.create')}
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('associatedOrg.intro')}
      </Typography.Paragraph>
      <Table<AssociatedOrgDto>
        rowKey="id"
        size="middle"
        aria-label={t('associatedOrg.listLabel')}
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('associatedOrg.empty') }}
      />

      <Modal
        title={t('associatedOrg.createdTitle')}
        open={!!shown}
        destroyOnHidden
        onCancel={() => setShown(null)}
        footer={
          <Button type="primary" onClick={() => setShown(null)}>
            {t('associatedOrg.done')}
          </Button>
        }
      >
        {shown?.link && (
          <Flex vertical gap="middle">
            <Typography.Text>{t('associatedOrg.createdHint', { days: VALID_DAYS })}</Typography.Text>
            <Typography.Text code copyable aria-label={t('associatedOrg.link')}>
              {fullLink(shown.link)}
            </Typography.Text>
            <Alert type="info" showIcon title={t('associatedOrg.createdNote', { time: when(shown.expiresTime) })} />
          </Flex>
        )}
      </Modal>
      {membersOf && <AssociatedMembersDialog association={membersOf} onClose={() => setMembersOf(null)} />}
    </Flex>
  );
}
