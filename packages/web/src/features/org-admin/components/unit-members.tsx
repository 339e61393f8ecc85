import { useState } from 'react';
import { App as AntApp, Button, Flex, Table, Typography } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ORG_LIST_PAGING } from '@tritium/shared/constants/limits';
import { OrgPickerDialog } from '../../../components/org-picker/index.ts';
import { orgAdminApi, orgKeys, type UserDto, type UserListBody } from '../api/org-admin-api.ts';
import { MEMBER_PAGE_SIZES } from '../hooks/use-member-list.ts';
import { totalText } from './member-columns.tsx';

interface UnitMembersProps {
  /** The role or post, as the heading shows it. */
  title: string;
  filter: { roleId: string } | { postId: string };
  onAdd: (userIds: string[]) => Promise<{ changed: number }>;
  onRemove: (userIds: string[]) => Promise<unknown>;
}

/** The members of a role or the holders of a post: 添加成员 through the multi-user picker, 移除 after asking. */
export function UnitMembers({ title, filter, onAdd, onRemove }: UnitMembersProps) {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const [isPicking, setPicking] = useState(false);
  const [page, setPage] = useState({ pageIndex: ORG_LIST_PAGING.from as number, pageSize: ORG_LIST_PAGING.pageSize as number });
  // Members of any side: a role may hold external people too.
  const body: UserListBody = { ...filter, scope: 'all', ...page };
  const members = useQuery({ queryKey: orgKeys.users(body), queryFn: ({ signal }) => orgAdminApi.listUsers(body, signal), placeholderData: keepPreviousData });
  const refresh = () => queryClient.invalidateQueries({ queryKey: orgKeys.all });

  const handleAdd = async (units: { id: string; name: string }[]) => {
    setPicking(false);
    if (!units.length) return;
    try {
      const { changed } = await onAdd(units.map((u) => u.id));
      void message.success(t('orgAdmin.unitMembers.added', { count: changed }));
    } catch {
      return; // shown by the API client
    }
    await refresh();
  };

  const confirmRemove = (user: UserDto) =>
    modal.confirm({
      title: t('orgAdmin.unitMembers.removeTitle', { name: user.name, unit: title }),
      content: t('orgAdmin.unitMembers.removeContent'),
      okText: t('orgAdmin.unitMembers.remove'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        await onRemove([user.id]).then(refresh, () => undefined);
      },
    });

  return (
    <Flex vertical gap="middle" style={{ flex: 1, minWidth: 0 }}>
      <Flex align="center" justify="space-between" gap="middle">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('orgAdmin.unitMembers.heading', { name: title })}
        </Typography.Title>
        <Button type="primary" icon={<UserAddOutlined />} onClick={() => setPicking(true)}>
          {t('orgAdmin.member.add')}
        </Button>
      </Flex>
      <Table<UserDto>
        rowKey="id"
        size="middle"
        aria-label={t('orgAdmin.unitMembers.table', { name: title })}
        loading={members.isLoading}
        dataSource={members.data?.list ?? []}
        locale={{ emptyText: t('orgAdmin.unitMembers.empty') }}
        columns={[
          { title: t('orgAdmin.member.name'), dataIndex: 'name' },
          { title: t('orgAdmin.member.mobile'), dataIndex: 'mobile' },
          { title: t('orgAdmin.editor.mainDepartment'), dataIndex: 'mainDepartmentName', render: (name: string | null) => name ?? '--' },
          {
            title: t('orgAdmin.member.actions'),
            key: 'actions',
            width: 100,
            render: (_, user) => (
              <Button type="link" size="small" danger aria-label={`${t('orgAdmin.unitMembers.remove')} ${user.name}`} onClick={() => confirmRemove(user)}>
                {t('orgAdmin.unitMembers.remove')}
              </Button>
            ),
          },
        ]}
        pagination={{
          current: page.pageIndex + 1,
          pageSize: page.pageSize,
          total: members.data?.total ?? 0,
          pageSizeOptions: MEMBER_PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: totalText(t),
          onChange: (current, pageSize) => setPage((p) => ({ pageSize, pageIndex: pageSize === p.pageSize ? current - 1 : 0 })),
        }}
      />
      <OrgPickerDialog
        open={isPicking}
        kind="user"
        multiple
        max={500}
        title={t('orgAdmin.unitMembers.pickTitle', { name: title })}
        onCancel={() => setPicking(false)}
        onOk={handleAdd}
      />
    </Flex>
  );
}
