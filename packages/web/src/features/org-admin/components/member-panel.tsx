import { useState } from 'react';
import { Button, Flex, Input, Table, Typography, theme } from 'antd';
import { LinkOutlined, MailOutlined, UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DepartmentDto, OrgSide, UserDto } from '../api/org-admin-api.ts';
import { MEMBER_PAGE_SIZES, useMemberList } from '../hooks/use-member-list.ts';
import { useUserState } from '../hooks/use-user-state.ts';
import { InviteDialog } from './invite-dialog.tsx';
import { InviteLinkDialog } from './invite-link-dialog.tsx';
import { memberColumns, totalText, type MemberAction } from './member-columns.tsx';
import { MoveUserDialog } from './move-user-dialog.tsx';
import { UserEditorDrawer } from './user-editor-drawer.tsx';

// contracts/org/fields.ts: Keyword
const KEYWORD_MAX = 50;

type Dialog = { kind: 'create' } | { kind: 'invite' } | { kind: 'link' } | { kind: 'edit'; user: UserDto } | { kind: 'move'; user: UserDto };

/** The members of the selected department: search, paging, and the toolbar and row actions that change them. */
export function MemberPanel({ side, department }: { side: OrgSide; department: DepartmentDto | undefined }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const members = useMemberList(department?.id);
  const userState = useUserState();
  const [dialog, setDialog] = useState<Dialog>();
  const close = () => setDialog(undefined);

  const handleAction = (action: MemberAction, user: UserDto) => {
    if (action === 'disable' || action === 'enable') userState.confirm(action, user);
    else setDialog({ kind: action, user });
  };
  const here = department ? { id: department.id, name: department.name } : undefined;

  return (
    <Flex vertical gap="middle" style={{ minWidth: 0, flex: 1 }}>
      <Flex align="center" justify="space-between" gap="middle" wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {department?.name ?? t('common.loading')}
        </Typography.Title>
        <Flex gap="small" wrap>
          <Input.Search
            key={department?.id}
            allowClear
            aria-label={t('orgAdmin.member.search')}
            placeholder={t('orgAdmin.member.searchPlaceholder')}
            maxLength={KEYWORD_MAX}
            style={{ width: 260 }}
            onSearch={members.search}
          />
          <Button type="primary" icon={<UserAddOutlined />} disabled={!department} onClick={() => setDialog({ kind: 'create' })}>
            {t('orgAdmin.member.add')}
          </Button>
          <Button icon={<MailOutlined />} disabled={!department} onClick={() => setDialog({ kind: 'invite' })}>
            {t('orgAdmin.member.invite')}
          </Button>
          {side === 'inner' && (
            <Button icon={<LinkOutlined />} disabled={!department} onClick={() => setDialog({ kind: 'link' })}>
              {t('orgAdmin.member.inviteLink')}
            </Button>
          )}
        </Flex>
      </Flex>
      <Table<UserDto>
        rowKey="id"
        size="middle"
        aria-label={t('orgAdmin.member.table')}
        loading={members.users.isFetching && !members.users.data}
        columns={memberColumns({ t, links: members.links, onAction: handleAction })}
        dataSource={members.users.data?.list ?? []}
        locale={{ emptyText: members.keyword ? t('orgAdmin.member.noMatch') : t('orgAdmin.member.empty') }}
        scroll={{ x: 740 }}
        style={{ background: token.colorBgContainer }}
        pagination={{
          current: members.page.pageIndex + 1,
          pageSize: members.page.pageSize,
          total: members.users.data?.total ?? 0,
          pageSizeOptions: MEMBER_PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: totalText(t),
          onChange: members.changePage,
        }}
      />
      <UserEditorDrawer
        open={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        side={side}
        userId={dialog?.kind === 'edit' ? dialog.user.id : undefined}
        defaultDepartment={here}
        onClose={close}
      />
      <InviteDialog open={dialog?.kind === 'invite'} side={side} defaultDepartment={here} onClose={close} />
      <InviteLinkDialog open={dialog?.kind === 'link'} defaultDepartment={here} onClose={close} />
      <MoveUserDialog
        open={dialog?.kind === 'move'}
        side={side}
        user={dialog?.kind === 'move' ? dialog.user : undefined}
        from={here}
        onClose={close}
      />
    </Flex>
  );
}
