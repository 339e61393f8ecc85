import { useState } from 'react';
import { Button, Flex, Modal, Popconfirm, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MultiUserPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { associatedOrgApi, associatedOrgKeys, type AssociatedMemberDto, type AssociatedOrgDto } from './associated-org-api.ts';

/**
 * The people of an association: the partner's administrator adds people of their own organisation (they become the
 * host's external users) and takes them out; the host's administrator sees them and may take them out.
 */
export function AssociatedMembersDialog({ association, onClose }: { association: AssociatedOrgDto; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isPartner = association.side === 'partner';
  const members = useQuery({ queryKey: associatedOrgKeys.members(association.id), queryFn: () => associatedOrgApi.members(association.id) });
  const [picked, setPicked] = useState<PickedUnit[]>([]);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: associatedOrgKeys.members(association.id) }), queryClient.invalidateQueries({ queryKey: associatedOrgKeys.list })]);
  const add = useMutation({
    mutationFn: () => associatedOrgApi.addMembers(association.id, picked.map((p) => p.id)),
    onSuccess: () => {
      setPicked([]);
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (userId: string) => associatedOrgApi.removeMembers(association.id, [userId]), onSuccess: () => void refresh() });
  const other = isPartner ? association.hostEngineName : association.partnerEngineName;

  const columns = [
    { title: t('associatedOrg.members.name'), dataIndex: 'name', key: 'name' },
    { title: t('associatedOrg.members.mobile'), dataIndex: 'mobile', key: 'mobile' },
    {
      title: t('associatedOrg.members.joined'),
      key: 'joined',
      render: (_: unknown, m: AssociatedMemberDto) => (m.isJoined ? <Tag color="green">{t('associatedOrg.members.isJoined')}</Tag> : <Tag>{t('associatedOrg.members.notJoined')}</Tag>),
    },
    {
      title: t('associatedOrg.columns.actions'),
      key: 'actions',
      render: (_: unknown, m: AssociatedMemberDto) => (
        <Popconfirm title={t('associatedOrg.members.removeConfirm', { name: m.name, other })} okButtonProps={{ danger: true }} onConfirm={() => remove.mutateAsync(m.userId)}>
          <Button type="link" danger size="small" aria-label={t('associatedOrg.members.removeOf', { name: m.name })}>
            {t('associatedOrg.members.remove')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Modal open title={t('associatedOrg.members.title', { other })} width={720} footer={null} onCancel={onClose} destroyOnHidden>
      <Flex vertical gap="middle">
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {isPartner ? t('associatedOrg.members.partnerHint', { other }) : t('associatedOrg.members.hostHint', { other })}
        </Typography.Paragraph>
        {isPartner && (
          <Flex gap="small" align="center" wrap>
            <MultiUserPicker scope="inner" value={picked} onChange={setPicked} aria-label={t('associatedOrg.members.pick')} placeholder={t('associatedOrg.members.pick')} />
            <Button type="primary" disabled={!picked.length} loading={add.isPending} onClick={() => add.mutate()}>
              {t('associatedOrg.members.add')}
            </Button>
          </Flex>
        )}
        <Table<AssociatedMemberDto>
          rowKey="userId"
          size="small"
          aria-label={t('associatedOrg.members.listLabel')}
          loading={members.isLoading}
          dataSource={members.data?.list ?? []}
          columns={columns}
          pagination={false}
          locale={{ emptyText: isPartner ? t('associatedOrg.members.emptyPartner') : t('associatedOrg.members.emptyHost') }}
        />
      </Flex>
    </Modal>
  );
}
