import { useEffect, useMemo, useState, type Key } from 'react';
import { Empty, Skeleton, Tree, type TreeDataNode } from 'antd';
import { ApartmentOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OrgScope } from '@tritium/shared/constants/org';
import { pickerApi, pickerKeys, type OrgItemDto, type OrgListBody } from './picker-api.ts';
import { candidateOf } from './use-org-picker.ts';
import type { PickerCandidate, PickerKind } from './picker-types.ts';

// The largest page the spec offers; a department with more members than this is found by search instead.
const CHILDREN_PAGE_SIZE = 500;

type BrowseNode = TreeDataNode & { item: OrgItemDto; children?: BrowseNode[] };

interface BrowseTreeProps {
  kind: PickerKind;
  scope: OrgScope;
  selectedIds: string[];
  onToggle: (unit: PickerCandidate) => void;
}

/**
 * The organisation as a tree, loaded one level at a time from /v1/org/list (sub-departments, then members).
 * A user picker ticks people and opens departments; a department picker ticks departments.
 */
export function PickerBrowseTree({ kind, scope, selectedIds, onToggle }: BrowseTreeProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const unitTypes: OrgListBody['unitTypes'] = kind === 'user' ? ['OrganizationUnit', 'User'] : ['OrganizationUnit'];
  const bodyFor = (parentId?: string): OrgListBody => ({ parentId, unitTypes, scope, pageIndex: 0, pageSize: CHILDREN_PAGE_SIZE });
  const rootsBody = bodyFor();
  const roots = useQuery({ queryKey: pickerKeys.children(rootsBody), queryFn: ({ signal }) => pickerApi.listChildren(rootsBody, signal) });
  const [children, setChildren] = useState<Record<string, OrgItemDto[]>>({});
  const [expandedKeys, setExpandedKeys] = useState<Key[]>([]);

  // The roots (the company, 外部组织) open by themselves: their top departments are what people look for first.
  const rootIds = roots.data?.list.map((r) => r.id).join(',');
  useEffect(() => {
    setChildren({});
    setExpandedKeys(rootIds ? rootIds.split(',') : []);
  }, [scope, rootIds]);

  const loadData = async (node: BrowseNode) => {
    const id = String(node.key);
    if (children[id]) return;
    const body = bodyFor(id);
    const result = await queryClient.fetchQuery({ queryKey: pickerKeys.children(body), queryFn: ({ signal }) => pickerApi.listChildren(body, signal) });
    setChildren((current) => ({ ...current, [id]: result.list }));
  };

  const treeData = useMemo(() => {
    const build = (items: OrgItemDto[]): BrowseNode[] =>
      items.map((item) => {
        const isUser = item.nodeType === 'user';
        const loaded = children[item.id];
        return {
          key: item.id,
          title: item.name,
          item,
          icon: isUser ? <UserOutlined /> : <ApartmentOutlined />,
          isLeaf: isUser || !item.hasChild || (loaded !== undefined && loaded.length === 0),
          checkable: kind === 'user' ? isUser : !isUser,
          children: loaded ? build(loaded) : undefined,
        };
      });
    return build(roots.data?.list ?? []);
  }, [roots.data, children, kind]);

  if (roots.isLoading) return <Skeleton active paragraph={{ rows: 5 }} title={false} />;
  if (!treeData.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('orgPicker.treeEmpty')} />;
  return (
    <Tree<BrowseNode>
      aria-label={t('orgPicker.tabTree')}
      treeData={treeData}
      showIcon
      blockNode
      checkable
      checkStrictly
      selectable={false}
      checkedKeys={{ checked: selectedIds, halfChecked: [] }}
      expandedKeys={expandedKeys}
      onExpand={(keys) => setExpandedKeys(keys)}
      loadData={loadData}
      onCheck={(_, info) => onToggle(candidateOf(info.node.item))}
      // A department in a user picker has no box: clicking its name opens it instead.
      onClick={(_, node) => {
        if (node.checkable !== false || node.isLeaf) return;
        setExpandedKeys((keys) => (keys.includes(node.key) ? keys.filter((k) => k !== node.key) : [...keys, node.key]));
      }}
    />
  );
}
