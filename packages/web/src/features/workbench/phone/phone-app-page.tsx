import { Button, Empty, List, Result, Skeleton, Typography, theme } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { FunctionNodeDto } from '../../apps/api/apps-api.ts';
import { AppIcon } from '../../apps/components/app-icon.tsx';
import { NodeView } from '../../apps/components/node-view.tsx';
import { useAppTree } from '../../apps/hooks/use-apps.ts';
import { useRecordVisit } from '../../apps/hooks/use-record-visit.ts';
import { isGroup } from '../../apps/node-types.ts';

/** An app on a phone, full screen: its nodes by group; a node opens full screen too. */
export function PhoneAppPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { appCode, nodeCode } = useParams();
  const { tree, error } = useAppTree(appCode);
  useRecordVisit(tree?.app ? (nodeCode ?? appCode) : undefined);
  const node = nodeCode ? tree?.byCode.get(nodeCode) : undefined;
  const open = (target: FunctionNodeDto) => {
    if (target.nodeType === FunctionNodeType.CustomLinkModule && target.url) window.open(target.url, '_blank', 'noopener');
    else navigate(`/workbench/app/${appCode}/${target.code}`);
  };
  // In the tree's order: each group is a section, and modules between groups make an untitled one.
  const sections: { key: string; title?: string; nodes: FunctionNodeDto[] }[] = [];
  for (const root of tree?.roots ?? []) {
    if (isGroup(root)) sections.push({ key: root.code, title: root.displayName, nodes: root.children });
    else if (sections.at(-1)?.title === undefined && sections.length > 0) sections.at(-1)!.nodes.push(root);
    else sections.push({ key: root.code, nodes: [root] });
  }
  const section = (key: string, title: string | undefined, nodes: FunctionNodeDto[]) => (
    <List
      key={key}
      header={title && <Typography.Text type="secondary" style={{ paddingInline: token.padding }}>{title}</Typography.Text>}
      style={{ background: token.colorBgContainer, marginBottom: token.marginSM }}
      dataSource={nodes}
      renderItem={(target) => (
        <List.Item style={{ padding: `${token.paddingSM}px ${token.padding}px`, cursor: 'pointer' }} onClick={() => open(target)}>
          <span style={{ display: 'flex', alignItems: 'center', gap: token.paddingSM, flex: 1, minWidth: 0 }}>
            <AppIcon node={target} size={24} />
            <Typography.Text ellipsis>{target.displayName}</Typography.Text>
          </span>
          <RightOutlined style={{ color: token.colorTextTertiary }} />
        </List.Item>
      )}
    />
  );
  return (
    <div style={{ minHeight: '100dvh', background: token.colorBgLayout }}>
      <header
        style={{ display: 'flex', alignItems: 'center', height: 48, padding: `0 ${token.paddingXS}px`, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      >
        <Button type="text" icon={<LeftOutlined />} onClick={() => navigate(nodeCode ? `/workbench/app/${appCode}` : '/workbench')}>
          {t('workbench.phone.back')}
        </Button>
        <Typography.Text strong ellipsis style={{ flex: 1, textAlign: 'center', marginRight: 64 }}>
          {node?.displayName ?? tree?.app?.displayName ?? ''}
        </Typography.Text>
      </header>
      {error && <Result status="404" title={t('apps.view.notFound')} />}
      {!error && !tree && <Skeleton active style={{ padding: token.padding }} />}
      {tree && nodeCode && (
        <div style={{ padding: token.padding, background: token.colorBgContainer, minHeight: 'calc(100dvh - 48px)' }}>
          <NodeView node={node} />
        </div>
      )}
      {tree && !nodeCode && (
        <div style={{ paddingTop: token.paddingSM }}>
          {tree.roots.length === 0 && <Empty style={{ paddingTop: 64 }} description={t('apps.tree.empty')} />}
          {sections.map(({ key, title, nodes }) => section(key, title, nodes))}
        </div>
      )}
    </div>
  );
}
