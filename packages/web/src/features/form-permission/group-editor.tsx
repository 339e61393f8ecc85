import { useEffect, useState } from 'react';
import { Checkbox, Form, Input, Modal, Radio, Select, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DATA_SCOPES } from '@tritium/shared/constants/org';
import { FIELD_RIGHTS, FORM_ACTIONS, type FieldRight } from '@tritium/shared/constants/permissions';
import { MultiDepartmentPicker, MultiUserPicker, useRoleList, type PickedUnit } from '../../components/org-picker/index.ts';
import { permissionApi, type PermissionGroup } from './permission-api.ts';

/** A field a group may set a right on: a main field, a sub-table, or a sub-table column (`Grid.Column`). */
export interface PermissionField {
  code: string;
  label: string;
  /** Set on a sub-table's columns. */
  grid?: string;
}

export interface GroupDraft {
  id?: string;
  name: string;
  users: PickedUnit[];
  departments: PickedUnit[];
  roles: string[];
  actions: PermissionGroup['actions'];
  viewScope: PermissionGroup['viewScope'];
  editScope: PermissionGroup['editScope'];
  fieldRights: Record<string, FieldRight>;
}

export const emptyGroup = (): GroupDraft => ({ name: '', users: [], departments: [], roles: [], actions: ['view', 'create', 'edit'], viewScope: 'own', editScope: 'own', fieldRights: {} });

interface GroupEditorProps {
  open: boolean;
  group: GroupDraft;
  fields: PermissionField[];
  saving: boolean;
  onCancel: () => void;
  onSave: (group: GroupDraft) => void;
}

/** One permission group: who (people, departments, roles), what (actions), which records (scopes), which fields. */
export function GroupEditor({ open, group, fields, saving, onCancel, onSave }: GroupEditorProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(group);
  useEffect(() => setDraft(group), [group]);
  const roles = useRoleList(open);
  const set = (patch: Partial<GroupDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const rightOf = (code: string): FieldRight => draft.fieldRights[code] ?? 'editable';
  const setRight = (code: string, right: FieldRight) => {
    const next = { ...draft.fieldRights };
    if (right === 'editable') delete next[code];
    else next[code] = right;
    set({ fieldRights: next });
  };
  const scopeOptions = DATA_SCOPES.map((s) => ({ value: s, label: t(`formPermission.scopes.${s}`) }));
  return (
    <Modal
      open={open}
      width={760}
      title={group.id ? t('formPermission.editGroup') : t('formPermission.newGroup')}
      okText={t('formPermission.save')}
      okButtonProps={{ disabled: !draft.name.trim(), loading: saving }}
      onOk={() => onSave(draft)}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('formPermission.name')} required>
          <Input value={draft.name} maxLength={50} onChange={(e) => set({ name: e.target.value })} aria-label={t('formPermission.name')} />
        </Form.Item>
        <Form.Item label={t('formPermission.users')}>
          <MultiUserPicker value={draft.users} onChange={(users) => set({ users })} aria-label={t('formPermission.users')} />
        </Form.Item>
        <Form.Item label={t('formPermission.departments')} extra={t('formPermission.departmentsHint')}>
          <MultiDepartmentPicker value={draft.departments} onChange={(departments) => set({ departments })} aria-label={t('formPermission.departments')} />
        </Form.Item>
        <Form.Item label={t('formPermission.roles')}>
          <Select
            mode="multiple"
            value={draft.roles}
            onChange={(roles) => set({ roles })}
            loading={roles.isLoading}
            options={(roles.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }))}
            optionFilterProp="label"
            aria-label={t('formPermission.roles')}
          />
        </Form.Item>
        <Form.Item label={t('formPermission.actions')}>
          <Checkbox.Group
            value={draft.actions}
            onChange={(actions) => set({ actions: actions as GroupDraft['actions'] })}
            options={FORM_ACTIONS.map((a) => ({ value: a, label: t(`formPermission.actionNames.${a}`) }))}
          />
        </Form.Item>
        <div style={{ display: 'flex', gap: 16 }}>
          <Form.Item label={t('formPermission.viewScope')} style={{ flex: 1 }}>
            <Select value={draft.viewScope} onChange={(viewScope) => set({ viewScope })} options={scopeOptions} aria-label={t('formPermission.viewScope')} />
          </Form.Item>
          <Form.Item label={t('formPermission.editScope')} style={{ flex: 1 }}>
            <Select value={draft.editScope} onChange={(editScope) => set({ editScope })} options={scopeOptions} aria-label={t('formPermission.editScope')} />
          </Form.Item>
        </div>
        <Typography.Text strong>{t('formPermission.fieldRights')}</Typography.Text>
        <Table
          size="small"
          rowKey="code"
          pagination={false}
          dataSource={fields}
          style={{ marginTop: 8 }}
          scroll={{ y: 260 }}
          columns={[
            { title: t('formPermission.field'), dataIndex: 'label', render: (label: string, f) => (f.grid ? <span style={{ paddingInlineStart: 16 }}>{label}</span> : label) },
            {
              title: t('formPermission.right'),
              width: 300,
              render: (_: unknown, f: PermissionField) => (
                <Radio.Group
                  size="small"
                  value={rightOf(f.code)}
                  onChange={(e) => setRight(f.code, e.target.value as FieldRight)}
                  aria-label={f.label}
                  options={[...FIELD_RIGHTS].reverse().map((r) => ({ value: r, label: t(`formPermission.rights.${r}`) }))}
                />
              ),
            },
          ]}
        />
      </Form>
    </Modal>
  );
}
