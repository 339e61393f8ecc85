import { useState } from 'react';
import { Alert, Form, Input, Select } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MultiDepartmentPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerError } from '../../../lib/apply-server-error.ts';
import { mobileRules, userNameRules } from '../../entry/form-rules.ts';
import { roleKeyOf } from '../../workbench/role.ts';
import { orgAdminApi, orgKeys, type OrgSide, type UserDetailDto } from '../api/org-admin-api.ts';
import { assignableAuthTypes, FIELD_OF_ERROR } from '../user-form.ts';

export interface UserValues {
  name: string;
  mobile: string;
  email?: string;
  departmentIds: PickedUnit[];
  mainDepartmentId?: string;
  authType: number;
  roleIds: string[];
  postIds: string[];
}
const FIELDS = ['name', 'mobile', 'email', 'departmentIds', 'mainDepartmentId', 'authType', 'roleIds', 'postIds'] as const;
// contracts/org/admin.ts: at most 20 departments per user.
const DEPARTMENTS_MAX = 20;

interface UserEditorFormProps {
  id: string;
  side: OrgSide;
  userId?: string;
  initial: UserValues;
  /** The user as loaded, when editing: an unchanged or locked number is not sent. */
  original?: UserDetailDto;
  onSaving: (saving: boolean) => void;
  onDone: () => void;
}

/** The user editor's fields: name, mobile, departments with one main, 身份, roles and posts. */
export function UserEditorForm({ id, side, userId, initial, original, onSaving, onDone }: UserEditorFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<UserValues>();
  const [formError, setFormError] = useState<string>();
  const roles = useQuery({ queryKey: orgKeys.roles, queryFn: orgAdminApi.listRoles });
  const posts = useQuery({ queryKey: orgKeys.posts, queryFn: orgAdminApi.listPosts });
  const chosen = Form.useWatch('departmentIds', form) ?? initial.departmentIds;
  const isExternal = side === 'external';
  const isMobileLocked = !!original?.isJoined;

  const handleFinish = async (values: UserValues) => {
    onSaving(true);
    setFormError(undefined);
    const common = {
      name: values.name.trim(),
      departmentIds: values.departmentIds.map((d) => d.id),
      mainDepartmentId: values.mainDepartmentId,
      authType: values.authType as 1 | 2 | 3 | 5 | 6,
      roleIds: values.roleIds,
      postIds: values.postIds,
    };
    const mobile = values.mobile.trim();
    // Sent only when it changed; empty clears the address (the server stores null).
    const email = values.email?.trim() ?? '';
    try {
      if (userId) await orgAdminApi.updateUser({ id: userId, ...common, mobile: isMobileLocked || mobile === original?.mobile ? undefined : mobile, email: email === (original?.email ?? '') ? undefined : email });
      else await orgAdminApi.createUser({ ...common, mobile, ...(email ? { email } : {}) });
      await queryClient.invalidateQueries({ queryKey: orgKeys.all });
      onDone();
    } catch (error) {
      const field = isApiError(error) ? FIELD_OF_ERROR[Number(error.errorCode)] : undefined;
      if (field && isApiError(error)) form.setFields([{ name: field, errors: [error.errorMessage] }]);
      else setFormError(applyServerError(form, error, FIELDS));
    } finally {
      onSaving(false);
    }
  };

  return (
    <Form<UserValues>
      id={id}
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={handleFinish}
      onValuesChange={(changed: Partial<UserValues>, all) => {
        // The main department is one of the chosen ones; when it is removed, the first one takes over.
        if (changed.departmentIds && !changed.departmentIds.some((d) => d.id === all.mainDepartmentId)) {
          form.setFieldValue('mainDepartmentId', changed.departmentIds[0]?.id);
        }
      }}
    >
      {formError && <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} />}
      <Form.Item name="name" label={t('orgAdmin.member.name')} rules={userNameRules(t)}>
        <Input autoFocus maxLength={32} />
      </Form.Item>
      <Form.Item
        name="mobile"
        label={t('orgAdmin.member.mobile')}
        rules={mobileRules(t)}
        extra={isMobileLocked ? t('orgAdmin.editor.mobileLocked') : t('orgAdmin.editor.mobileHint')}
      >
        <Input inputMode="tel" maxLength={11} disabled={isMobileLocked} />
      </Form.Item>
      <Form.Item name="email" label={t('orgAdmin.member.email')} rules={[{ type: 'email', message: t('orgAdmin.validation.emailInvalid') }]} extra={t('orgAdmin.editor.emailHint')}>
        <Input inputMode="email" maxLength={255} />
      </Form.Item>
      <Form.Item
        name="departmentIds"
        label={t('orgAdmin.member.departments')}
        rules={[{ required: true, type: 'array', min: 1, message: t('orgAdmin.validation.departmentRequired') }]}
      >
        <MultiDepartmentPicker scope={side} max={DEPARTMENTS_MAX} />
      </Form.Item>
      <Form.Item name="mainDepartmentId" label={t('orgAdmin.editor.mainDepartment')} rules={[{ required: true, message: t('orgAdmin.validation.mainRequired') }]}>
        <Select options={chosen.map((d) => ({ value: d.id, label: d.name }))} placeholder={t('orgAdmin.editor.mainPlaceholder')} />
      </Form.Item>
      <Form.Item name="authType" label={t('orgAdmin.member.authType')} extra={isExternal ? t('orgAdmin.editor.externalAuthType') : undefined}>
        <Select disabled={isExternal} options={assignableAuthTypes(isExternal).map((value) => ({ value, label: t(roleKeyOf(value)) }))} />
      </Form.Item>
      <Form.Item name="roleIds" label={t('orgAdmin.editor.roles')}>
        <Select
          mode="multiple"
          optionFilterProp="label"
          loading={roles.isLoading}
          placeholder={t('orgAdmin.editor.rolesPlaceholder')}
          options={roles.data?.list.map((r) => ({ value: r.id, label: r.groupName ? `${r.groupName} / ${r.name}` : r.name }))}
        />
      </Form.Item>
      <Form.Item name="postIds" label={t('orgAdmin.editor.posts')}>
        <Select
          mode="multiple"
          optionFilterProp="label"
          loading={posts.isLoading}
          placeholder={t('orgAdmin.editor.postsPlaceholder')}
          options={posts.data?.list.map((p) => ({ value: p.id, label: p.name }))}
        />
      </Form.Item>
    </Form>
  );
}
