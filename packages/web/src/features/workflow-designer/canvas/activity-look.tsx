import type { CSSProperties } from 'react';
import { theme } from 'antd';
import {
  AuditOutlined,
  BranchesOutlined,
  EditOutlined,
  ForkOutlined,
  MergeCellsOutlined,
  NodeExpandOutlined,
  PlayCircleOutlined,
  SendOutlined,
  StopOutlined,
} from '@ant-design/icons';
import type { ActivityType } from '../model/template-model.ts';

const ICONS: Record<ActivityType, typeof AuditOutlined> = {
  Start: PlayCircleOutlined,
  Fill: EditOutlined,
  Approve: AuditOutlined,
  Circulate: SendOutlined,
  Condition: BranchesOutlined,
  Parallel: ForkOutlined,
  Join: MergeCellsOutlined,
  ChildInstance: NodeExpandOutlined,
  End: StopOutlined,
};

export function ActivityIcon({ type, style }: { type: ActivityType; style?: CSSProperties }) {
  const Icon = ICONS[type];
  return <Icon style={style} aria-hidden />;
}

/** Each type's colour from the theme's tokens: people nodes blue, branches orange, start/end green/grey. */
export function useTypeColour(type: ActivityType): string {
  const { token } = theme.useToken();
  switch (type) {
    case 'Start':
      return token.colorSuccess;
    case 'End':
      return token.colorTextQuaternary;
    case 'Condition':
    case 'Parallel':
    case 'Join':
      return token.colorWarning;
    case 'Circulate':
    case 'ChildInstance':
      return token.colorInfo;
    default:
      return token.colorPrimary;
  }
}
