import { useId, useState } from 'react';
import { Button, Drawer, Flex, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { PickedUnit } from '../../../components/org-picker/index.ts';
import { useOpenCount } from '../../../lib/use-open-count.ts';
import { orgAdminApi, orgKeys, type OrgSide, type UserDetailDto } from '../api/org-admin-api.ts';
import { UserEditorForm, type UserValues } from './user-editor-form.tsx';
import { FacePhotoSection } from './face-photo-section.tsx';

interface EditorProps {
  open: boolean;
  side: OrgSide;
  /** Editing this user; absent: adding one. */
  userId?: string;
  defaultDepartment?: PickedUnit;
  onClose: () => void;
}

const valuesOf = (user: UserDetailDto): UserValues => ({
  name: user.name,
  mobile: user.mobile,
  email: user.email ?? '',
  departmentIds: user.departments.map(({ id, name }) => ({ id, name })),
  mainDepartmentId: user.departments.find((d) => d.isMain)?.id,
  authType: user.authType,
  roleIds: user.roles.map((r) => r.id),
  postIds: user.posts.map((p) => p.id),
});

/** 添加成员 and 编辑 in a drawer: the form waits for the user's details when editing. */
export function UserEditorDrawer({ open, side, userId, defaultDepartment, onClose }: EditorProps) {
  const { t } = useTranslation();
  const [isSaving, setSaving] = useState(false);
  const formId = useId();
  const openCount = useOpenCount(open);
  const isEdit = userId !== undefined;
  const isExternal = side === 'external';
  const detail = useQuery({ queryKey: orgKeys.user(userId ?? ''), queryFn: () => orgAdminApi.getUser(userId!), enabled: open && isEdit });

  const initial: UserValues | undefined = isEdit
    ? detail.data && valuesOf(detail.data)
    : {
        name: '',
        mobile: '',
        email: '',
        departmentIds: defaultDepartment ? [defaultDepartment] : [],
        mainDepartmentId: defaultDepartment?.id,
        authType: isExternal ? UserAuthType.External : UserAuthType.Personal,
        roleIds: [],
        postIds: [],
      };

  return (
    <Drawer
      open={open}
      size={480}
      destroyOnHidden
      title={isEdit ? t('orgAdmin.editor.editTitle') : isExternal ? t('orgAdmin.editor.addExternalTitle') : t('orgAdmin.editor.addTitle')}
      onClose={onClose}
      footer={
        <Flex justify="end" gap="small">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" htmlType="submit" form={formId} loading={isSaving} disabled={!initial}>
            {t('common.save')}
          </Button>
        </Flex>
      }
    >
      {initial ? (
        <UserEditorForm
          key={`${openCount}-${userId ?? 'new'}`}
          id={formId}
          side={side}
          userId={userId}
          initial={initial}
          original={detail.data}
          onSaving={setSaving}
          onDone={onClose}
        />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
      {isEdit && !isExternal && initial && <FacePhotoSection userId={userId} />}
    </Drawer>
  );
}
