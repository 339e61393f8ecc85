import { Badge, Button } from 'antd';
import { NodeIndexOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { badgeText, useFlowCounts } from './flow-center-api.ts';

/** The flow center's entry in the workbench top bar, with the todo count as its badge. */
export function FlowCenterEntry() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const counts = useFlowCounts();
  const todo = counts.data?.todo ?? 0;
  return (
    <Badge count={badgeText(todo)} size="small" offset={[-6, 4]}>
      <Button type="text" icon={<NodeIndexOutlined />} onClick={() => navigate('/workbench/flow?tab=todo')} aria-label={todo ? `${t('flowCenter.entry')} ${todo}` : t('flowCenter.entry')}>
        {t('flowCenter.entry')}
      </Button>
    </Badge>
  );
}
