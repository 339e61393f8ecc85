import { useState } from 'react';
import { Alert, Button, Drawer, Flex, Segmented, Select, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FUNCTION_NODE_AUTHORIZATIONS, type FunctionNodeAuthorization } from '@tritium/shared/constants/org';
import { DepartmentPicker, UserPicker, useRoleList, type PickedUnit } from '../../../components/org-picker/index.ts';
import { appKeys, appsApi, type AppDto } from '../api/apps-api.ts';

type Granted = Exclude<FunctionNodeAuthorization, 'none'>;
const GRANTS = FUNCTION_NODE_AUTHORIZATIONS.filter((p): p is Granted => p !== 'none');

/**
 * 应用权限 (issue 19; docs/decisions/0004, 0037): which people and roles open which nodes of an app, and who
 * administers it — a sub-administrator with 管理员 on the app designs its forms, views, workflows and permissions.
 * Engine administrators only (the server refuses others).
 */
export function AppPermissionDrawer({ app, onClose }: { app: AppDto; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [nodeCode, setNodeCode] = useState(app.code);
  const [kind, setKind] = useState<'user' | 'department' | 'role'>('user');
  const [user, setUser] = useState<PickedUnit | null>(null);
  const [department, setDepartment] = useState<PickedUnit | null>(null);
  const [role, setRole] = useState<string | undefined>();
  const [permission, setPermission] = useState<Granted>('access');
  const nodes = useQuery({ queryKey: appKeys.features(app.code), queryFn: () => appsApi.features(app.code) });
  const grants = useQuery({ queryKey: ['apps', 'permissions', nodeCode], queryFn: () => appsApi.nodePermissions(nodeCode) });
  const roles = useRoleList(kind === 'role');
  const set = useMutation({
    mutationFn: (body: { unitId: string; permission: FunctionNodeAuthorization }) => appsApi.setNodePermission({ code: nodeCode, ...body }),
    onSuccess: () => {
      setUser(null);
      setDepartment(null);
      setRole(undefined);
      void client.invalidateQueries({ queryKey: ['apps'] });
    },
  });
  const nodeOptions = [
    { value: app.code, label: t('appPermission.wholeApp', { name: app.displayName }) },
    ...(nodes.data?.list ?? []).map((n) => ({ value: n.code, label: n.displayName })),
  ];
  const permissionOptions = GRANTS.map((p) => ({ value: p, label: t(`appPermission.levels.${p}`) }));
  const unitId = kind === 'user' ? user?.id : kind === 'department' ? department?.id : role;
  const kindLabel = (type: string) => t(type === 'Role' ? 'appPermission.role' : type === 'Department' ? 'appPermission.department' : 'appPermission.user');

  return (
    <Drawer open onClose={onClose} width={680} title={t('appPermission.title', { name: app.displayName })}>
      <Flex vertical gap="middle">
        <Alert type="info" showIcon message={t('appPermission.intro')} />
        <Select value={nodeCode} onChange={setNodeCode} options={nodeOptions} aria-label={t('appPermission.node')} />
        <Table
          size="small"
          rowKey="unitId"
          pagination={false}
          loading={grants.isLoading}
          dataSource={grants.data?.list ?? []}
          locale={{ emptyText: t('appPermission.empty') }}
          columns={[
            { title: t('appPermission.who'), dataIndex: 'name' },
            { title: t('appPermission.kind'), dataIndex: 'unitType', width: 90, render: kindLabel },
            {
              title: t('appPermission.permission'),
              width: 160,
              render: (_: unknown, g: { unitId: string; name: string; permission: FunctionNodeAuthorization }) => (
                <Select<Granted> size="small" style={{ width: 140 }} value={g.permission as Granted} options={permissionOptions} aria-label={`${g.name} ${t('appPermission.permission')}`}
                  onChange={(p: Granted) => set.mutate({ unitId: g.unitId, permission: p })} />
              ),
            },
            {
              title: '',
              width: 56,
              render: (_: unknown, g: { unitId: string; name: string }) => (
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={`${t('appPermission.remove')} ${g.name}`} onClick={() => set.mutate({ unitId: g.unitId, permission: 'none' })} />
              ),
            },
          ]}
        />
        <Typography.Text strong>{t('appPermission.add')}</Typography.Text>
        <Flex gap="small" wrap align="center">
          <Segmented
            value={kind}
            onChange={(v) => setKind(v as typeof kind)}
            options={[{ value: 'user', label: t('appPermission.user') }, { value: 'department', label: t('appPermission.department') }, { value: 'role', label: t('appPermission.role') }]}
          />
          {kind === 'user' ? (
            <UserPicker value={user} onChange={setUser} aria-label={t('appPermission.pickUser')} />
          ) : kind === 'department' ? (
            <DepartmentPicker value={department} onChange={setDepartment} aria-label={t('appPermission.pickDepartment')} />
          ) : (
            <Select style={{ width: 200 }} value={role} onChange={setRole} loading={roles.isLoading} placeholder={t('appPermission.pickRole')} aria-label={t('appPermission.role')}
              options={(roles.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }))} showSearch optionFilterProp="label" />
          )}
          <Select style={{ width: 140 }} value={permission} onChange={setPermission} options={permissionOptions} aria-label={t('appPermission.permission')} />
          <Button type="primary" icon={<PlusOutlined />} disabled={!unitId} loading={set.isPending} onClick={() => unitId && set.mutate({ unitId, permission })}>
            {t('appPermission.grant')}
          </Button>
        </Flex>
      </Flex>
    </Drawer>
  );
}
