import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AutomationRunState } from '@tritium/shared/automation/index';

// ui.md: Running blue, Canceled (here Stopped, Skipped) grey; succeeded green, failed red, waiting orange like a draft.
const COLORS: Record<AutomationRunState, string> = { Waiting: 'orange', Running: 'blue', Succeeded: 'green', Failed: 'red', Skipped: 'default', Stopped: 'default' };

export function RunStateTag({ state }: { state: AutomationRunState }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[state]}>{t(`automation.log.states.${state}`)}</Tag>;
}
