import { useState } from 'react';
import { Button, Flex, theme } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ProductMark } from '../../../components/product-mark.tsx';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { EngineInfoDrawer } from './engine-info-drawer.tsx';
import { EngineSwitcher } from './engine-switcher.tsx';
import { UserMenu } from './user-menu.tsx';
import { FlowCenterEntry } from '../../flow-center/flow-center-entry.tsx';
import { MessageBell } from '../../message-center/message-bell.tsx';
import { useLiveEvents } from '../../message-center/use-live-events.ts';
import { SearchBox } from '../../search/search-box.tsx';
import { AssistantEntry } from '../../ai/assistant-entry.tsx';

/**
 * The workbench top bar (ui.md "Frames"): product mark, engine switcher, the global search (Ctrl+K), the admin console
 * entry for Administrators, user menu, the flow-center entry with the todo badge and the message bell. The top bar
 * holds the live stream that keeps the badges current (issue 20).
 */
export function TopBar({ info }: { info: UserInfoResult }) {
  const { token } = theme.useToken();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [showsEngineInfo, setShowsEngineInfo] = useState(false);
  useLiveEvents();
  return (
    <Flex
      component="header"
      align="center"
      justify="space-between"
      gap="middle"
      style={{
        height: 56,
        padding: `0 ${token.paddingLG}px`,
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <Flex align="center" gap="large">
        <ProductMark size="small" />
        <EngineSwitcher currentEngine={info.currentEngine} />
        <SearchBox />
      </Flex>
      <Flex align="center" gap="small">
        <AssistantEntry userId={info.user.userId} />
        <FlowCenterEntry />
        <MessageBell />
        {info.user.isAdmin && (
          <Button type="text" icon={<SettingOutlined />} onClick={() => navigate('/admin/org')}>
            {t('admin.console')}
          </Button>
        )}
        <UserMenu userName={info.user.name} onShowEngineInfo={() => setShowsEngineInfo(true)} />
      </Flex>
      <EngineInfoDrawer info={info} open={showsEngineInfo} onClose={() => setShowsEngineInfo(false)} />
    </Flex>
  );
}
