import { useState } from 'react';
import { App, Alert, Button, Drawer, Empty, Flex, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UserPicker, type PickedUnit } from '../../components/org-picker/index.ts';
import { permissionApi, permissionKeys, type PermissionGroup } from './permission-api.ts';
import { MemberPreview } from './member-preview.tsx';
import { emptyGroup, GroupEditor, type GroupDraft, type PermissionField } from './group-editor.tsx';

interface PermissionDrawerProps {
  schemaCode: string;
  open: boolean;
  onClose: () => void;
  /** The form's fields, sub-tables and their columns, for the field rights grid. */
  fields: PermissionField[];
}

const draftOf = (g: PermissionGroup, names: Record<string, string>): GroupDraft => ({
  id: g.id,
  name: g.name,
  users: g.members.users.map((id) => ({ id, name: names[id] ?? id })),
  departments: g.members.departments.map((id) => ({ id, name: names[id] ?? id })),
  roles: g.members.roles,
  actions: g.actions,
  viewScope: g.viewScope,
  editScope: g.editScope,
  fieldRights: g.fieldRights,
});

/**
 * 表单权限 (docs/decisions/0037): the form's permission groups — a member's rights are the union of their groups; a
 * form without groups lets everyone who opens it see every record. "Preview as" shows the list and a record as one
 * member reads them (member-preview.tsx).
 */
export function PermissionDrawer({ schemaCode, open, onClose, fields }: PermissionDrawerProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const groups = useQuery({ queryKey: permissionKeys.groups(schemaCode), queryFn: () => permissionApi.groups(schemaCode), enabled: open });
  const [editing, setEditing] = useState<GroupDraft | null>(null);
  const [previewUser, setPreviewUser] = useState<PickedUnit | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['form-permission'] });
  const save = useMutation({
    mutationFn: (g: GroupDraft) =>
      permissionApi.save({
        schemaCode,
        group: { ...(g.id ? { id: g.id } : {}), name: g.name.trim(), members: { users: g.users.map((u) => u.id), departments: g.departments.map((d) => d.id), roles: g.roles }, actions: g.actions, viewScope: g.viewScope, editScope: g.editScope, fieldRights: g.fieldRights },
      }),
    onSuccess: () => {
      setEditing(null);
      void message.success(t('formPermission.saved'));
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => permissionApi.remove(schemaCode, id), onSuccess: () => void refresh() });
  const names = groups.data?.names ?? {};
  const label = (code: string) => fields.find((f) => f.code === code)?.label ?? code;

  return (
    <Drawer open={open} onClose={onClose} width={720} title={t('formPermission.title')} destroyOnHidden>
      <Flex vertical gap="middle">
        <Alert type="info" showIcon message={t('formPermission.intro')} />
        <Flex justify="space-between" align="center">
          <Typography.Title level={5} style={{ margin: 0 }}>{t('formPermission.groups')}</Typography.Title>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(emptyGroup())}>{t('formPermission.newGroup')}</Button>
        </Flex>
        {groups.data && groups.data.list.length === 0 ? (
          <Empty description={t('formPermission.noGroups')} />
        ) : (
          <List
            loading={groups.isLoading}
            bordered
            dataSource={groups.data?.list ?? []}
            renderItem={(g) => (
              <List.Item
                actions={[
                  <Button key="edit" type="link" icon={<EditOutlined />} aria-label={`${t('formPermission.editGroup')} ${g.name}`} onClick={() => setEditing(draftOf(g, names))} />,
                  <Popconfirm key="remove" title={t('formPermission.removeConfirm', { name: g.name })} onConfirm={() => remove.mutate(g.id)}>
                    <Button type="link" danger icon={<DeleteOutlined />} aria-label={`${t('formPermission.remove')} ${g.name}`} />
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  title={g.name}
                  description={
                    <Space direction="vertical" size={4}>
                      <span>{[...g.members.users, ...g.members.departments, ...g.members.roles].map((id) => names[id] ?? id).join('、') || t('formPermission.nobody')}</span>
                      <span>
                        {g.actions.map((a) => <Tag key={a}>{t(`formPermission.actionNames.${a}`)}</Tag>)}
                      </span>
                      <span>
                        {t('formPermission.viewScope')}：{t(`formPermission.scopes.${g.viewScope}`)}；{t('formPermission.editScope')}：{t(`formPermission.scopes.${g.editScope}`)}
                      </span>
                      {Object.keys(g.fieldRights).length > 0 && (
                        <span>{Object.entries(g.fieldRights).map(([code, right]) => `${label(code)}（${t(`formPermission.rights.${right}`)}）`).join('、')}</span>
                      )}
                    </Space>
                  }
                />
              </List.Item>
            )}
          />
        )}
        <Typography.Title level={5} style={{ margin: 0 }}>{t('formPermission.previewAs')}</Typography.Title>
        <UserPicker value={previewUser} onChange={setPreviewUser} aria-label={t('formPermission.previewAs')} />
        {previewUser && <MemberPreview key={previewUser.id} schemaCode={schemaCode} user={previewUser} label={label} />}
      </Flex>
      {editing && <GroupEditor open group={editing} fields={fields} saving={save.isPending} onCancel={() => setEditing(null)} onSave={(g) => save.mutate(g)} />}
    </Drawer>
  );
}
