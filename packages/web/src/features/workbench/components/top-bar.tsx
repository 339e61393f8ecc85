import { Flex, theme } from 'antd';
import { ProductMark } from '../../../components/product-mark.tsx';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { EngineSwitcher } from './engine-switcher.tsx';
import { UserMenu } from './user-menu.tsx';

/**
 * The workbench top bar (ui.md "Frames"): product mark, engine switcher, user menu. Search, message bell and
 * flow-center entry join it as their features land.
 */
export function TopBar({ info }: { info: UserInfoResult }) {
  const { token } = theme.useToken();
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
      </Flex>
      <UserMenu userName={info.user.name} />
    </Flex>
  );
}
