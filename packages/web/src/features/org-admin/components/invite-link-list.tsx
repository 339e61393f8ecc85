import { Button, Popconfirm, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { EMPTY_DATE, formatDateTime } from '../../../lib/date-format.ts';
import type { InvitationLinkDto } from '../api/invitation-link-api.ts';

const STATE_COLOURS: Record<InvitationLinkDto['state'], string | undefined> = { active: 'green', expired: undefined, revoked: undefined };

/** The engine's links, newest first: department, expiry, state, joins, and turning an active one off. */
export function InviteLinkList({ links, isLoading, onRevoke }: { links: InvitationLinkDto[]; isLoading: boolean; onRevoke: (id: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const columns = [
    { title: t('orgAdmin.inviteLink.columns.department'), key: 'department', render: (_: unknown, l: InvitationLinkDto) => l.departmentName ?? EMPTY_DATE },
    { title: t('orgAdmin.inviteLink.columns.creator'), key: 'creator', render: (_: unknown, l: InvitationLinkDto) => l.creatorName ?? EMPTY_DATE },
    { title: t('orgAdmin.inviteLink.columns.expires'), key: 'expires', render: (_: unknown, l: InvitationLinkDto) => formatDateTime(l.expiresTime) },
    {
      title: t('orgAdmin.inviteLink.columns.state'),
      key: 'state',
      render: (_: unknown, l: InvitationLinkDto) => <Tag color={STATE_COLOURS[l.state]}>{t(`orgAdmin.inviteLink.state.${l.state}`)}</Tag>,
    },
    { title: t('orgAdmin.inviteLink.columns.joins'), dataIndex: 'joinCount', key: 'joins' },
    {
      title: t('orgAdmin.inviteLink.columns.actions'),
      key: 'actions',
      render: (_: unknown, l: InvitationLinkDto) =>
        l.state === 'active' && (
          <Popconfirm title={t('orgAdmin.inviteLink.revokeConfirm')} okButtonProps={{ danger: true }} onConfirm={() => onRevoke(l.id)}>
            <Button type="link" danger size="small" aria-label={t('orgAdmin.inviteLink.revokeOf', { time: formatDateTime(l.createdTime) })}>
              {t('orgAdmin.inviteLink.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];
  return (
    <Table<InvitationLinkDto>
      rowKey="id"
      size="small"
      aria-label={t('orgAdmin.inviteLink.listLabel')}
      loading={isLoading}
      dataSource={links}
      columns={columns}
      pagination={links.length > 10 ? { pageSize: 10 } : false}
      locale={{ emptyText: t('orgAdmin.inviteLink.empty') }}
    />
  );
}
