import { useState } from 'react';
import { Button, Card, Empty, Flex, Skeleton, Tree, type TreeDataNode } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { orgAdminApi, orgKeys, type RoleDto, type RoleGroupDto } from '../api/org-admin-api.ts';
import { useRemoveConfirm } from '../hooks/use-remove-confirm.ts';
import { NameDialog } from './name-dialog.tsx';
import { CountedName, MembersCard, RenameRemoveMenu } from './unit-panel-parts.tsx';
import { UnitMenu } from './unit-menu.tsx';

// contracts/org/fields.ts: RoleName
const ROLE_NAME_MAX = 32;

// Not `role`: tree nodes pass some props to the DOM, and role is an attribute there.
type RoleNode = TreeDataNode & { groupUnit?: RoleGroupDto; roleUnit?: RoleDto; children?: RoleNode[] };
type Editing = { kind: 'createGroup' } | { kind: 'renameGroup'; group: RoleGroupDto } | { kind: 'createRole'; group: RoleGroupDto } | { kind: 'renameRole'; role: RoleDto };

/** 角色: role groups with their roles on the left, the selected role's members on the right. */
export function RolePanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const confirmRemove = useRemoveConfirm();
  const groups = useQuery({ queryKey: orgKeys.roleGroups, queryFn: orgAdminApi.listRoleGroups });
  const roles = useQuery({ queryKey: orgKeys.roles, queryFn: orgAdminApi.listRoles });
  const [selectedId, setSelectedId] = useState<string>();
  const [editing, setEditing] = useState<Editing>();
  // New groups open by themselves: the tree remembers only what the person closed.
  const [collapsed, setCollapsed] = useState<string[]>([]);
  const selected = roles.data?.list.find((r) => r.id === selectedId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: orgKeys.all });

  const groupMenu = (group: RoleGroupDto) => (
    <UnitMenu
      name={group.name}
      items={[
        { key: 'createRole', label: t('orgAdmin.role.createRole') },
        { key: 'rename', label: t('orgAdmin.rename') },
        { key: 'remove', label: t('orgAdmin.remove'), danger: true, divided: true },
      ]}
      onSelect={(key) => {
        if (key === 'createRole') setEditing({ kind: 'createRole', group });
        else if (key === 'rename') setEditing({ kind: 'renameGroup', group });
        else confirmRemove({ title: t('orgAdmin.role.removeGroupTitle', { name: group.name }), content: t('orgAdmin.role.removeGroupContent'), remove: () => orgAdminApi.removeRoleGroup(group.id) });
      }}
    />
  );
  const roleMenu = (role: RoleDto) => (
    <RenameRemoveMenu
      name={role.name}
      onRename={() => setEditing({ kind: 'renameRole', role })}
      onRemove={() =>
        confirmRemove({
          title: t('orgAdmin.role.removeRoleTitle', { name: role.name }),
          content: t('orgAdmin.role.removeRoleContent', { count: role.memberCount }),
          remove: () => orgAdminApi.removeRole(role.id),
          onRemoved: () => setSelectedId(undefined),
        })
      }
    />
  );

  const treeData: RoleNode[] = (groups.data?.list ?? []).map((group) => ({
    key: group.id,
    groupUnit: group,
    selectable: false,
    children: (roles.data?.list ?? []).filter((r) => r.parentId === group.id).map((role) => ({ key: role.id, roleUnit: role, isLeaf: true })),
  }));
  const renderTitle = (node: RoleNode) => (
    <Flex align="center" justify="space-between" gap="small">
      <CountedName strong={!!node.groupUnit} name={node.groupUnit?.name ?? node.roleUnit?.name} count={node.roleUnit?.memberCount} />
      {node.groupUnit ? groupMenu(node.groupUnit) : roleMenu(node.roleUnit!)}
    </Flex>
  );

  const dialogOf = (current: Editing) => {
    switch (current.kind) {
      case 'createGroup':
        return { title: t('orgAdmin.role.createGroup'), label: t('orgAdmin.role.groupName'), initial: '', save: (name: string) => orgAdminApi.createRoleGroup(name) };
      case 'renameGroup':
        return { title: t('orgAdmin.role.renameGroup'), label: t('orgAdmin.role.groupName'), initial: current.group.name, save: (name: string) => orgAdminApi.renameRoleGroup(current.group.id, name) };
      case 'createRole':
        return { title: t('orgAdmin.role.createRoleIn', { name: current.group.name }), label: t('orgAdmin.role.roleName'), initial: '', save: (name: string) => orgAdminApi.createRole(current.group.id, name) };
      case 'renameRole':
        return { title: t('orgAdmin.role.renameRole'), label: t('orgAdmin.role.roleName'), initial: current.role.name, save: (name: string) => orgAdminApi.renameRole(current.role.id, name) };
    }
  };
  const dialog = editing && dialogOf(editing);

  return (
    <Flex gap="middle" align="start">
      <Card
        size="small"
        title={t('orgAdmin.role.title')}
        style={{ width: 280, flex: 'none' }}
        extra={
          <Button size="small" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'createGroup' })}>
            {t('orgAdmin.role.createGroup')}
          </Button>
        }
      >
        {groups.isLoading || roles.isLoading ? (
          <Skeleton active />
        ) : treeData.length ? (
          <Tree<RoleNode>
            aria-label={t('orgAdmin.role.title')}
            blockNode
            treeData={treeData}
            expandedKeys={treeData.map((n) => n.key).filter((key) => !collapsed.includes(String(key)))}
            onExpand={(_keys, info) => setCollapsed((keys) => (info.expanded ? keys.filter((k) => k !== info.node.key) : [...keys, String(info.node.key)]))}
            selectedKeys={selectedId ? [selectedId] : []}
            onSelect={(_keys, info) => info.node.roleUnit && setSelectedId(info.node.roleUnit.id)}
            titleRender={renderTitle}
          />
        ) : (
          <Empty description={t('orgAdmin.role.empty')} />
        )}
      </Card>
      <MembersCard
        unit={selected}
        filter={(roleId) => ({ roleId })}
        onAdd={orgAdminApi.addRoleMembers}
        onRemove={orgAdminApi.removeRoleMembers}
        pickOne={t('orgAdmin.role.pickOne')}
      />
      {dialog && (
        <NameDialog
          open
          title={dialog.title}
          label={dialog.label}
          initialName={dialog.initial}
          maxLength={ROLE_NAME_MAX}
          onClose={() => setEditing(undefined)}
          onSubmit={async (name) => {
            await dialog.save(name);
            await refresh();
          }}
        />
      )}
    </Flex>
  );
}
