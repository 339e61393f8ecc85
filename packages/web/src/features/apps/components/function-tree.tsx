import { useState } from 'react';
import { Button, Dropdown, Flex, Tooltip, Typography, theme, type MenuProps } from 'antd';
import { CaretDownOutlined, CheckCircleOutlined, StopOutlined, CaretRightOutlined, DeleteOutlined, DragOutlined, EditOutlined, EllipsisOutlined, ExportOutlined, MenuFoldOutlined, PlusOutlined } from '@ant-design/icons';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent, type DragOverEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { appsApi, type FunctionNodeDto } from '../api/apps-api.ts';
import type { AppTree, TreeNode } from '../hooks/use-apps.ts';
import { CREATABLE_NODE_TYPES, isGroup, nodeTypeKey } from '../node-types.ts';
import { preCodeForDrop } from '../tree-order.ts';
import { AppIcon } from './app-icon.tsx';
import { SortableRow } from './sortable-row.tsx';
import { useDragAccessibility } from '../../../lib/use-drag-accessibility.ts';

interface FunctionTreeProps {
  tree: AppTree;
  selectedCode: string | undefined;
  canAdminister: boolean;
  onCreate: (nodeType: number, parentCode?: string) => void;
  onRename: (node: FunctionNodeDto) => void;
  onMove: (node: FunctionNodeDto) => void;
  /** 停用 / 启用: a disabled node stays in the tree for administrators and is nobody's default. */
  onToggleState: (node: FunctionNodeDto) => void;
  onRemove: (node: FunctionNodeDto) => void;
  onDrop: (node: FunctionNodeDto, parentCode: string, preCode: string) => void;
  /** Folds the tree away (the content gets the width). */
  onFold?: () => void;
}

/**
 * An app's function tree: groups (folded, except the one holding the open node) with their modules. An
 * administrator drags a row to reorder it, or onto a group to move it there.
 */
export function FunctionTree({ tree, selectedCode, canAdminister, onCreate, onRename, onMove, onToggleState, onRemove, onDrop, onFold }: FunctionTreeProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const appCode = tree.app?.code ?? '';
  const holder = selectedCode ? tree.byCode.get(selectedCode)?.parentCode : undefined;
  const [unfolded, setUnfolded] = useState<Set<string>>(() => new Set(holder ? [holder] : []));
  const [dropGroup, setDropGroup] = useState<string>();
  const toggle = (code: string) => setUnfolded((old) => new Set(old.has(code) ? [...old].filter((c) => c !== code) : [...old, code]));
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const rows: { node: TreeNode | FunctionNodeDto; depth: number }[] = [];
  for (const node of tree.roots) {
    rows.push({ node, depth: 0 });
    if (isGroup(node) && unfolded.has(node.code)) rows.push(...node.children.map((child) => ({ node: child, depth: 1 })));
  }
  const accessibility = useDragAccessibility((id: UniqueIdentifier) => tree.byCode.get(String(id))?.displayName);
  const siblingsUnder = (parentCode: string) =>
    (parentCode === appCode ? tree.roots : (tree.roots.find((node) => node.code === parentCode)?.children ?? [])).map((node) => node.code);
  /** A module held over a group goes into it. */
  const intoGroup = (activeCode: string, overCode: string) => {
    const active = tree.byCode.get(activeCode);
    const over = tree.byCode.get(overCode);
    return active && over && !isGroup(active) && isGroup(over) && active.parentCode !== over.code ? over : undefined;
  };

  const handleDragOver = ({ active, over }: DragOverEvent) => setDropGroup(over ? intoGroup(String(active.id), String(over.id))?.code : undefined);
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    setDropGroup(undefined);
    const node = tree.byCode.get(String(active.id));
    if (!node || !over || active.id === over.id) return;
    const group = intoGroup(node.code, String(over.id));
    if (group) {
      onDrop(node, group.code, siblingsUnder(group.code).at(-1) ?? '');
      setUnfolded((old) => new Set([...old, group.code]));
      return;
    }
    const target = tree.byCode.get(String(over.id));
    const parentCode = target?.parentCode ?? appCode;
    onDrop(node, parentCode, preCodeForDrop(siblingsUnder(parentCode), node.code, String(over.id)));
  };

  const createItems = (parentCode?: string): MenuProps['items'] =>
    CREATABLE_NODE_TYPES.filter((type) => !parentCode || !isGroup({ nodeType: type })).map((type) => ({
      key: `create:${type}:${parentCode ?? ''}`,
      label: t(nodeTypeKey(type)),
    }));
  const handleMenu = (node: FunctionNodeDto) => ({ key }: { key: string }) => {
    if (key.startsWith('create:')) onCreate(Number(key.split(':')[1]), node.code);
    else if (key === 'rename') onRename(node);
    else if (key === 'move') onMove(node);
    else if (key === 'toggle') onToggleState(node);
    else if (key === 'remove') onRemove(node);
  };

  return (
    <Flex vertical gap={token.paddingXXS}>
      <Flex align="center" gap="small" style={{ padding: `0 ${token.paddingXS}px ${token.paddingXS}px` }}>
        {tree.app && <AppIcon node={tree.app} size={32} />}
        <Typography.Title level={5} ellipsis style={{ margin: 0, flex: 1 }}>
          {tree.app?.displayName}
        </Typography.Title>
        {canAdminister && (
          <Dropdown trigger={['click']} menu={{ items: createItems(), onClick: ({ key }) => onCreate(Number(key.split(':')[1])) }}>
            <Button size="small" icon={<PlusOutlined />} aria-label={t('apps.tree.create')}>
              {t('apps.tree.createShort')}
            </Button>
          </Dropdown>
        )}
        {onFold && (
          <Tooltip title={t('apps.tree.fold')}>
            <Button size="small" type="text" aria-label={t('apps.tree.fold')} icon={<MenuFoldOutlined />} onClick={onFold} />
          </Tooltip>
        )}
      </Flex>
      <nav aria-label={t('apps.tree.label')}>
        {tree.roots.length === 0 && (
          <Typography.Paragraph type="secondary" style={{ padding: token.paddingXS }}>
            {t(canAdminister ? 'apps.tree.emptyAdmin' : 'apps.tree.empty')}
          </Typography.Paragraph>
        )}
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragOver={handleDragOver} onDragEnd={handleDragEnd} onDragCancel={() => setDropGroup(undefined)} accessibility={accessibility}>
          <SortableContext items={rows.map((row) => row.node.code)} strategy={verticalListSortingStrategy}>
            {rows.map(({ node, depth }) => (
              <SortableRow
                key={node.code}
                id={node.code}
                disabled={!canAdminister}
                highlighted={dropGroup === node.code}
                handleLabel={t('apps.tree.drag', { name: node.displayName })}
                style={{ paddingLeft: depth * token.paddingLG }}
              >
                {isGroup(node) ? (
                  <button
                    type="button"
                    aria-expanded={unfolded.has(node.code)}
                    aria-label={node.displayName}
                    onClick={() => toggle(node.code)}
                    style={{ ...rowStyle(token), border: 'none', background: 'none', cursor: 'pointer', textAlign: 'left' }}
                  >
                    {unfolded.has(node.code) ? <CaretDownOutlined /> : <CaretRightOutlined />}
                    <Typography.Text strong ellipsis>
                      {node.displayName}
                    </Typography.Text>
                    <Typography.Text type="secondary">{(node as TreeNode).children.length}</Typography.Text>
                  </button>
                ) : node.nodeType === FunctionNodeType.CustomLinkModule && node.url ? (
                  <a href={node.url} target="_blank" rel="noopener noreferrer" onClick={() => void appsApi.visit(node.code)} style={{ ...rowStyle(token), color: token.colorText }}>
                    <AppIcon node={node} size={20} />
                    <Typography.Text ellipsis>{node.displayName}</Typography.Text>
                    <ExportOutlined style={{ color: token.colorTextTertiary }} />
                  </a>
                ) : (
                  <NavLink
                    to={`/workbench/app/${appCode}/${node.code}`}
                    style={() => ({ ...rowStyle(token), color: token.colorText, background: node.code === selectedCode ? token.colorPrimaryBg : undefined })}
                  >
                    <AppIcon node={node} size={20} />
                    <Typography.Text ellipsis type={node.state === 'Disabled' ? 'secondary' : undefined} delete={node.state === 'Disabled'}>
                      {node.displayName}
                    </Typography.Text>
                  </NavLink>
                )}
                {canAdminister && (
                  <Dropdown
                    trigger={['click']}
                    menu={{
                      items: [
                        ...(isGroup(node) ? [{ key: 'create', icon: <PlusOutlined />, label: t('apps.tree.createIn'), children: createItems(node.code) }] : []),
                        { key: 'rename', icon: <EditOutlined />, label: t('apps.actions.rename') },
                        ...(!isGroup(node) ? [{ key: 'move', icon: <DragOutlined />, label: t('apps.actions.move') }] : []),
                        { key: 'toggle', icon: node.state === 'Disabled' ? <CheckCircleOutlined /> : <StopOutlined />, label: t(node.state === 'Disabled' ? 'apps.actions.enable' : 'apps.actions.disable') },
                        { type: 'divider' as const },
                        { key: 'remove', icon: <DeleteOutlined />, danger: true, label: t('apps.actions.remove') },
                      ],
                      onClick: handleMenu(node),
                    }}
                  >
                    <Button type="text" size="small" aria-label={t('apps.actions.menu', { name: node.displayName })} icon={<EllipsisOutlined />} />
                  </Dropdown>
                )}
              </SortableRow>
            ))}
          </SortableContext>
        </DndContext>
      </nav>
    </Flex>
  );
}

const rowStyle = (token: ReturnType<typeof theme.useToken>['token']) => ({
  display: 'flex',
  flex: 1,
  minWidth: 0,
  alignItems: 'center',
  gap: token.paddingXS,
  padding: `${token.paddingXXS}px ${token.paddingXS}px`,
  borderRadius: token.borderRadius,
});
