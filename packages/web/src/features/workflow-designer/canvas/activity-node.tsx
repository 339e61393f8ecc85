import { memo } from 'react';
import { Badge, Flex, Typography, theme } from 'antd';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { Activity } from '../model/template-model.ts';
import { NODE_WIDTH } from '../model/template-model.ts';
import { ActivityIcon, useTypeColour } from './activity-look.tsx';
import { useDesignContext } from '../model/design-context.ts';

export interface ActivityNodeData extends Record<string, unknown> {
  activity: Activity;
  issueCount: number;
  /** On the path of the last dry run, with who would receive it. */
  dryRun?: { receivers: string; nobody: 'administrator' | 'autoPass' | null };
  /** The dry run ran and this node is not on its path. */
  offPath: boolean;
}
export type ActivityFlowNode = Node<ActivityNodeData, 'activity'>;

/** One activity on the canvas: its type, name, the issues the validator found on it and the dry run's receivers. */
export const ActivityNode = memo(function ActivityNode({ data, selected }: NodeProps<ActivityFlowNode>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { activity, issueCount, dryRun, offPath } = data;
  const colour = useTypeColour(activity.type);
  const border = issueCount ? token.colorError : dryRun ? token.colorSuccess : selected ? token.colorPrimary : token.colorBorder;
  const { names, fields } = useDesignContext();
  const sources = 'participants' in activity ? activity.participants.sources : null;
  const summary = sources
    ?.map((s) => {
      switch (s.type) {
        case 'users':
        case 'departments':
          return s.ids.map((id) => names[id] ?? '…').join('、');
        case 'originatorManager':
          return t('workflowDesigner.node.managers', { levels: s.levels });
        case 'field':
          return fields.find((f) => f.code === s.code)?.name ?? s.code;
        default:
          return t(`workflowDesigner.participants.types.${s.type}`);
      }
    })
    .filter(Boolean)
    .join('；');
  return (
    <Badge count={issueCount} size="small" title={t('workflowDesigner.node.issues', { count: issueCount })}>
      <div
        style={{
          width: NODE_WIDTH,
          padding: `${token.paddingXS}px ${token.paddingSM}px`,
          background: token.colorBgContainer,
          border: `${selected || issueCount || dryRun ? 2 : 1}px solid ${border}`,
          borderTop: `4px solid ${colour}`,
          borderRadius: token.borderRadius,
          boxShadow: selected ? token.boxShadowSecondary : undefined,
          opacity: offPath ? 0.45 : 1,
        }}
      >
        {activity.type !== 'Start' && <Handle type="target" position={Position.Top} />}
        <Flex align="center" gap={6}>
          <ActivityIcon type={activity.type} style={{ color: colour }} />
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {t(`workflowDesigner.types.${activity.type}`)}
          </Typography.Text>
        </Flex>
        <Typography.Text strong ellipsis style={{ display: 'block' }}>
          {activity.name}
        </Typography.Text>
        {dryRun ? (
          <Typography.Text type="success" ellipsis style={{ display: 'block', fontSize: token.fontSizeSM }}>
            {dryRun.receivers || (dryRun.nobody ? t(`workflowDesigner.dryRun.nobody.${dryRun.nobody}`) : '')}
          </Typography.Text>
        ) : sources !== null ? (
          <Typography.Text type={summary ? 'secondary' : 'danger'} ellipsis style={{ display: 'block', fontSize: token.fontSizeSM }}>
            {summary || t('workflowDesigner.node.noParticipants')}
          </Typography.Text>
        ) : null}
        {activity.type !== 'End' && <Handle type="source" position={Position.Bottom} />}
      </div>
    </Badge>
  );
});
