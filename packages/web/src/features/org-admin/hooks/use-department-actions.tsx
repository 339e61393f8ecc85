import { useState } from 'react';
import { App as AntApp } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@tritium/shared/errors/catalogue';
import { OrgPickerDialog } from '../../../components/org-picker/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { orgAdminApi, orgKeys, type DepartmentDto, type OrgSide } from '../api/org-admin-api.ts';
import { NameDialog } from '../components/name-dialog.tsx';

export type DepartmentAction = 'create' | 'rename' | 'manager' | 'move' | 'remove';

// contracts/org/fields.ts: DepartmentName
const DEPARTMENT_NAME_MAX = 50;

interface Callbacks {
  onMove: (department: DepartmentDto, toParentId: string) => void;
  onCreated: (parent: DepartmentDto) => void;
}

/** The dialogs behind a department's menu: 新建子部门, 重命名, 设置主管, 移动到…, 删除. */
export function useDepartmentActions(side: OrgSide, { onMove, onCreated }: Callbacks) {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState<{ action: Exclude<DepartmentAction, 'remove'>; department: DepartmentDto }>();
  const close = () => setCurrent(undefined);
  const refresh = () => queryClient.invalidateQueries({ queryKey: orgKeys.all });

  const confirmRemove = (department: DepartmentDto) =>
    modal.confirm({
      title: t('orgAdmin.department.removeTitle', { name: department.name }),
      content: t('orgAdmin.department.removeContent'),
      okText: t('orgAdmin.department.remove'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await orgAdminApi.removeDepartment(department.id);
          void message.success(t('orgAdmin.department.removed', { name: department.name }));
          await refresh();
        } catch (error) {
          if (!isApiError(error) || error.errorType !== 'BIZ') return;
          // 220003 carries what is still inside, so the person knows what to move out first.
          if (error.errorCode === ERRORS.DepartmentNotEmpty.code) {
            const counts = error.detail as { childCount?: number; userCount?: number } | undefined;
            modal.warning({
              title: t('orgAdmin.department.notEmptyTitle'),
              content: t('orgAdmin.department.notEmpty', { childCount: counts?.childCount ?? 0, userCount: counts?.userCount ?? 0 }),
              okText: t('common.ok'),
            });
          } else void message.error(error.errorMessage);
        }
      },
    });

  const open = (action: DepartmentAction, department: DepartmentDto) =>
    action === 'remove' ? confirmRemove(department) : setCurrent({ action, department });

  const department = current?.department;
  const manager = department?.managerId ? [{ id: department.managerId, name: department.managerName ?? '' }] : [];
  const dialogs = (
    <>
      <NameDialog
        open={current?.action === 'create'}
        title={t('orgAdmin.department.createChildOf', { name: department?.name ?? '' })}
        label={t('orgAdmin.department.name')}
        maxLength={DEPARTMENT_NAME_MAX}
        onClose={close}
        onSubmit={async (name) => {
          await orgAdminApi.createDepartment({ parentId: department!.id, name });
          void message.success(t('orgAdmin.department.created', { name }));
          onCreated(department!);
          await refresh();
        }}
      />
      <NameDialog
        open={current?.action === 'rename'}
        title={t('orgAdmin.department.rename')}
        label={t('orgAdmin.department.name')}
        initialName={department?.name}
        maxLength={DEPARTMENT_NAME_MAX}
        onClose={close}
        onSubmit={async (name) => {
          await orgAdminApi.updateDepartment({ id: department!.id, name });
          await refresh();
        }}
      />
      <OrgPickerDialog
        open={current?.action === 'manager'}
        kind="user"
        multiple={false}
        value={manager}
        defaultScope={side}
        title={t('orgAdmin.department.managerOf', { name: department?.name ?? '' })}
        onCancel={close}
        onOk={(units) => {
          close();
          const body = { id: department!.id, managerId: units[0]?.id ?? null };
          // A refusal pops up through the API client (loud call); nothing else to undo here.
          void orgAdminApi.updateDepartment(body, { disableBizError: false }).then(() => {
            void message.success(units[0] ? t('orgAdmin.department.managerSet', { name: units[0].name }) : t('orgAdmin.department.managerCleared'));
            return refresh();
          }, () => undefined);
        }}
      />
      <OrgPickerDialog
        open={current?.action === 'move'}
        kind="department"
        multiple={false}
        scope={side}
        title={t('orgAdmin.department.moveTitle', { name: department?.name ?? '' })}
        onCancel={close}
        onOk={(units) => {
          close();
          if (units[0] && units[0].id !== department!.parentId) onMove(department!, units[0].id);
        }}
      />
    </>
  );
  return { open, dialogs };
}
