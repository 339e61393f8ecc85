import { Button, Dropdown, Flex, Skeleton, Tooltip, Typography, theme } from 'antd';
import { CodeOutlined, CopyOutlined, DeleteOutlined, EditOutlined, EllipsisOutlined, MenuFoldOutlined, PlusOutlined, SafetyOutlined } from '@ant-design/icons';
import { useCallback, type ReactNode } from 'react';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { NavLink, useNavigate } from 'react-router';
import { APP_CODE_PATH } from '@tritium/shared/constants/entry-routes';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { appKeys, type AppDto } from '../api/apps-api.ts';
import { AiAppEntry } from '../../ai/ai-app-entry.tsx';
import { preCodeForDrop } from '../tree-order.ts';
import { AppIcon } from './app-icon.tsx';
import { SortableRow } from './sortable-row.tsx';
import { FoldedAppList } from './folded-app-list.tsx';
import { useDragAccessibility } from '../../../lib/use-drag-accessibility.ts';

interface AppListProps {
  apps: AppDto[] | undefined;
  isAdministrator: boolean;
  /** May create apps (Administrators and AppCreators); absent: isAdministrator. */
  canCreate?: boolean;
  administers: (appCode: string) => boolean;
  onCreate: () => void;
  onEdit: (app: AppDto) => void;
  onCopy: (app: AppDto) => void;
  onRemove: (app: AppDto) => void;
  onSort: (code: string, preCode: string) => void;
  /** Administrators: who opens and who administers the app's nodes (应用权限). */
  onPermissions?: (app: AppDto) => void;
  /** Entries beside 新建应用 from other features (导入应用包: docs/decisions/0130), for those who may create apps. */
  createExtra?: ReactNode;
  /** More entries of an app's menu from other features (发布为模板, 示例数据: docs/decisions/0131). */
  moreActions?: (app: AppDto) => { key: string; icon?: ReactNode; label: string; onSelect: () => void }[];
  /** Folded to a strip of icons (the content gets the width); absent: the list does not fold. */
  folded?: boolean;
  onToggleFold?: () => void;
}

/** The workbench's left column (PC): the apps, icon + colour + name; Administrators drag them into order. */
export function AppList(props: AppListProps) {
  if (props.folded) return <FoldedAppList apps={props.apps} onUnfold={props.onToggleFold} />;
  return <UnfoldedAppList {...props} />;
}

function UnfoldedAppList({ apps, isAdministrator, canCreate = isAdministrator, administers, onCreate, onEdit, onCopy, onRemove, onSort, onPermissions, moreActions, createExtra, onToggleFold }: AppListProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { token } = theme.useToken();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const codes = apps?.map((app) => app.code) ?? [];
  const accessibility = useDragAccessibility(useCallback((id: UniqueIdentifier) => apps?.find((app) => app.code === id)?.displayName, [apps]));
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onSort(String(active.id), preCodeForDrop(codes, String(active.id), String(over.id)));
  };

  return (
    <nav aria-label={t('apps.list.label')} style={{ display: 'flex', flexDirection: 'column', gap: token.paddingXS }}>
      <Flex align="center" justify="space-between" style={{ padding: `0 ${token.paddingXS}px` }}>
        <Typography.Text strong>{t('apps.list.title')}</Typography.Text>
        <Flex align="center">
          {canCreate && (
            <Button size="small" type="link" icon={<PlusOutlined />} onClick={onCreate}>
              {t('apps.list.create')}
            </Button>
          )}
          {canCreate && (
            <AiAppEntry
              onCreated={(created) => {
                void queryClient.invalidateQueries({ queryKey: appKeys.list });
                void navigate(`/workbench/app/${created.appCode}`);
              }}
            />
          )}
          {canCreate && createExtra}
          {onToggleFold && (
            <Tooltip title={t('apps.list.fold')}>
              <Button size="small" type="text" aria-label={t('apps.list.fold')} icon={<MenuFoldOutlined />} onClick={onToggleFold} />
            </Tooltip>
          )}
        </Flex>
      </Flex>
      {!apps && <Skeleton active paragraph={{ rows: 5 }} title={false} />}
      {apps?.length === 0 && (
        <Typography.Text type="secondary" style={{ padding: token.paddingXS }}>
          {t(canCreate ? 'apps.list.emptyAdmin' : 'apps.list.empty')}
        </Typography.Text>
      )}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={handleDragEnd} accessibility={accessibility}>
        <SortableContext items={codes} strategy={verticalListSortingStrategy}>
          {apps?.map((app) => (
            <SortableRow key={app.code} id={app.code} disabled={!isAdministrator} handleLabel={t('apps.list.drag', { name: app.displayName })}>
              <NavLink
                to={`/workbench/app/${app.code}`}
                style={({ isActive }) => ({
                  display: 'flex',
                  flex: 1,
                  minWidth: 0,
                  alignItems: 'center',
                  gap: token.paddingXS,
                  padding: `${token.paddingXXS}px ${token.paddingXS}px`,
                  borderRadius: token.borderRadius,
                  color: token.colorText,
                  background: isActive ? token.colorPrimaryBg : undefined,
                })}
              >
                <AppIcon node={app} />
                <Typography.Text ellipsis style={{ flex: 1 }}>
                  {app.displayName}
                </Typography.Text>
              </NavLink>
              {administers(app.code) && (
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      { key: 'edit', icon: <EditOutlined />, label: t('apps.actions.edit') },
                      { key: 'copy', icon: <CopyOutlined />, label: t('apps.actions.copy') },
                      ...(isAdministrator && onPermissions ? [{ key: 'permissions', icon: <SafetyOutlined />, label: t('appPermission.entry') }] : []),
                      { key: 'code', icon: <CodeOutlined />, label: t('codeEditor.appEntry') },
                      ...(moreActions?.(app).map(({ key, icon, label }) => ({ key, icon, label })) ?? []),
                      { type: 'divider' as const },
                      { key: 'remove', icon: <DeleteOutlined />, danger: true, label: t('apps.actions.remove') },
                    ],
                    onClick: ({ key }) => (moreActions?.(app).some((action) => action.key === key) ? moreActions(app).find((action) => action.key === key)!.onSelect() : key === 'code' ? navigate(`${APP_CODE_PATH}/${encodeURIComponent(app.code)}`) : key === 'edit' ? onEdit(app) : key === 'copy' ? onCopy(app) : key === 'permissions' ? onPermissions?.(app) : onRemove(app)),
                  }}
                >
                  <Button type="text" size="small" aria-label={t('apps.actions.menu', { name: app.displayName })} icon={<EllipsisOutlined />} />
                </Dropdown>
              )}
            </SortableRow>
          ))}
        </SortableContext>
      </DndContext>
    </nav>
  );
}
