import { useEffect, type Key } from 'react';
import { Empty, Flex, Skeleton, Tree, Typography, theme, type TreeDataNode } from 'antd';
import { ApartmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DepartmentDto, OrgSide } from '../api/org-admin-api.ts';
import { useDepartmentTree } from '../hooks/use-department-tree.ts';
import { useDepartmentActions, type DepartmentAction } from '../hooks/use-department-actions.tsx';
import { UnitMenu, type UnitMenuItem } from './unit-menu.tsx';

type DepartmentNode = TreeDataNode & { department: DepartmentDto; children?: DepartmentNode[] };

interface DepartmentTreeProps {
  side: OrgSide;
  selected: DepartmentDto | undefined;
  onSelect: (department: DepartmentDto) => void;
}

/**
 * The department tree of the console: lazy levels, drag a department onto another to move it (with its
 * sub-departments and members), and a menu per department for the rest, including 移动到… for keyboards.
 */
export function DepartmentTree({ side, selected, onSelect }: DepartmentTreeProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const tree = useDepartmentTree(side);
  const actions = useDepartmentActions(side, {
    onMove: (department, toParentId) => tree.move.mutate({ department, toParentId }),
    onCreated: (parent) => tree.expand(parent.id),
  });
  const root = tree.roots.data?.list[0];

  // The root opens and is selected first: the company's own members are the first thing to look at.
  useEffect(() => {
    if (!root) return;
    tree.expand(root.id);
    if (!selected) onSelect(root);
  }, [root?.id]);

  const byId = new Map<string, DepartmentDto>();
  const build = (list: DepartmentDto[]): DepartmentNode[] =>
    list.map((department) => {
      byId.set(department.id, department);
      const children = tree.childrenOf.get(department.id);
      return { key: department.id, title: department.name, department, isLeaf: !department.hasChild && !children?.length, children: children && build(children) };
    });
  const treeData = build(tree.roots.data?.list ?? []);

  // A rename or a new manager reaches the member panel's heading too (cached rows keep their identity when unchanged).
  const fresh = selected && byId.get(selected.id);
  useEffect(() => {
    if (fresh && fresh !== selected) onSelect(fresh);
  }, [fresh]);

  const menuItems = (department: DepartmentDto): UnitMenuItem<DepartmentAction>[] => {
    const isRoot = department.parentId === null;
    return [
      { key: 'create', label: t('orgAdmin.department.createChild') },
      { key: 'rename', label: t('orgAdmin.department.rename'), disabled: isRoot },
      { key: 'manager', label: t('orgAdmin.department.setManager') },
      { key: 'move', label: t('orgAdmin.department.moveTo'), disabled: isRoot },
      { key: 'remove', label: t('orgAdmin.department.remove'), disabled: isRoot, danger: true, divided: true },
    ];
  };

  const renderTitle = (node: DepartmentNode) => (
    <Flex align="center" justify="space-between" gap="small">
      <Flex align="center" gap="small" style={{ minWidth: 0 }}>
        <ApartmentOutlined aria-hidden style={{ color: token.colorTextTertiary }} />
        <Typography.Text ellipsis>{node.department.name}</Typography.Text>
        {node.department.managerName && (
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, whiteSpace: 'nowrap' }}>
            {t('orgAdmin.department.managerShort', { name: node.department.managerName })}
          </Typography.Text>
        )}
      </Flex>
      <UnitMenu name={node.department.name} items={menuItems(node.department)} onSelect={(key) => actions.open(key, node.department)} />
    </Flex>
  );

  if (tree.roots.isLoading) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (!treeData.length) return <Empty description={t('orgAdmin.department.empty')} />;
  return (
    <>
      <Tree<DepartmentNode>
        aria-label={t('orgAdmin.department.tree')}
        blockNode
        treeData={treeData}
        selectedKeys={selected ? [selected.id] : []}
        expandedKeys={tree.expandedKeys}
        onExpand={(keys: Key[]) => tree.setExpandedKeys(keys.map(String))}
        loadData={(node) => tree.loadChildren(String(node.key)).then(() => undefined)}
        onSelect={(_keys, info) => onSelect(info.node.department)}
        titleRender={renderTitle}
        // Roots stay where they are (220004); a department is dropped onto its new parent.
        draggable={{ icon: false, nodeDraggable: (node) => (node as DepartmentNode).department.parentId !== null }}
        allowDrop={({ dropPosition }) => dropPosition === 0}
        onDrop={(info) => {
          const moving = info.dragNode.department;
          if (!info.dropToGap && info.node.key !== moving.parentId) tree.move.mutate({ department: moving, toParentId: String(info.node.key) });
        }}
      />
      {actions.dialogs}
    </>
  );
}
