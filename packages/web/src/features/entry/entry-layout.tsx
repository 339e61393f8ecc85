import { Card, Flex, theme } from 'antd';
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
      <Card style={{ width: 440, maxWidth: '100%' }} styles={{ body: { padding: token.paddingXL } }}>
        <Flex component="header" align="center" justify="space-between" style={{ marginBottom: token.marginLG }}>
          <ProductMark />
          <LanguageSwitch />
        </Flex>
        <main>
          <Outlet />
        </main>
      </Card>
    </Flex>
  );
}
