import { Flex, theme } from 'antd';
import { Outlet } from 'react-router';
import { ProductMark } from '../../components/product-mark.tsx';
import { LanguageSwitch } from '../../components/language-switch.tsx';

/** The one layout of the entry app (calls.md §2): a centred card with the product mark and the language switch. */
export function EntryLayout() {
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      justify="center"
      style={{ minHeight: '100vh', padding: token.paddingLG, boxSizing: 'border-box', background: token.colorBgLayout }}
    >
      {/* A card drawn with the theme's tokens: antd's Card brings Tabs, a dropdown menu and Skeleton with it (0036). */}
      <div
        style={{
          width: 440,
          maxWidth: '100%',
          boxSizing: 'border-box',
          padding: token.paddingXL,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
        }}
      >
        <Flex component="header" align="center" justify="space-between" style={{ marginBottom: token.marginLG }}>
          <ProductMark />
          <LanguageSwitch />
        </Flex>
        <main>
          <Outlet />
        </main>
      </div>
    </Flex>
  );
}
