import { Button, Flex, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { roleKeyOf } from '../../workbench/role.ts';
import type { AssociationDto, UserDto } from '../api/org-admin-api.ts';

export type MemberAction = 'edit' | 'disable' | 'enable' | 'move';

interface ColumnOptions {
  t: TFunction;
  links: Map<string, AssociationDto[]> | undefined;
  onAction: (action: MemberAction, user: UserDto) => void;
}

const EMPTY = '--';

/** 姓名, 手机号, 部门 (main marked 主), 身份, 状态 and the row's actions. */
export function memberColumns({ t, links, onAction }: ColumnOptions): TableColumnsType<UserDto> {
  return [
    {
      title: t('orgAdmin.member.name'),
      dataIndex: 'name',
      width: 140,
      render: (name: string, user) => (
        <Flex align="center" gap="small" wrap>
          <span>{name}</span>
          {!user.isJoined && (
            <Tooltip title={t('orgAdmin.member.notJoinedHint')}>
              <Tag color="orange" style={{ marginInlineEnd: 0 }}>
                {t('orgAdmin.member.notJoined')}
              </Tag>
            </Tooltip>
          )}
        </Flex>
      ),
    },
    { title: t('orgAdmin.member.mobile'), dataIndex: 'mobile', width: 120, render: (mobile: string) => mobile || EMPTY },
    {
      title: t('orgAdmin.member.departments'),
      key: 'departments',
      render: (_, user) => {
        const departments = links?.get(user.id)?.filter((l) => l.unitType !== 'Role' && l.unitType !== 'Post');
        if (!departments?.length) return user.mainDepartmentName ?? EMPTY;
        return (
          <Flex gap={4} wrap>
            {departments.map((d) => (
              <span key={d.unitId}>
                {d.name}
                {d.isMain && (
                  <Tag color="blue" bordered={false} style={{ marginInlineStart: 4, marginInlineEnd: 0 }}>
                    {t('orgAdmin.member.main')}
                  </Tag>
                )}
              </span>
            ))}
          </Flex>
        );
      },
    },
    { title: t('orgAdmin.member.authType'), dataIndex: 'authType', width: 96, render: (authType: number) => t(roleKeyOf(authType)) },
    {
      title: t('orgAdmin.member.state'),
      dataIndex: 'state',
      width: 72,
      render: (state: string) =>
        state === 'disabled' ? <Tag>{t('orgAdmin.member.disabled')}</Tag> : <Tag color="green">{t('orgAdmin.member.active')}</Tag>,
    },
    {
      title: t('orgAdmin.member.actions'),
      key: 'actions',
      width: 168,
      // The actions stay in view when a narrow window scrolls the table sideways.
      fixed: 'right',
      render: (_, user) => {
        const isDisabled = user.state === 'disabled';
        const action = (key: MemberAction, label: string, danger = false) => (
          <Button type="link" size="small" danger={danger} style={{ paddingInline: 4 }} onClick={() => onAction(key, user)} aria-label={`${label} ${user.name}`}>
            {label}
          </Button>
        );
        return (
          <Flex gap={0} wrap>
            {action('edit', t('orgAdmin.member.edit'))}
            {isDisabled ? action('enable', t('orgAdmin.member.enable')) : action('disable', t('orgAdmin.member.disable'), true)}
            {action('move', t('orgAdmin.member.move'))}
          </Flex>
        );
      },
    },
  ];
}

/** Row count line under the table. */
export const totalText = (t: TFunction) => (total: number) => <Typography.Text type="secondary">{t('orgAdmin.member.total', { total })}</Typography.Text>;
