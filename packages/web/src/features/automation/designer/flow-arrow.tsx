import { Flex, theme } from 'antd';
import { ArrowDownOutlined } from '@ant-design/icons';

/** The arrow between two cards of the vertical flow (trigger → conditions → steps). */
export function FlowArrow() {
  const { token } = theme.useToken();
  return (
    <Flex justify="center" style={{ padding: '6px 0', color: token.colorTextTertiary }} aria-hidden>
      <ArrowDownOutlined />
    </Flex>
  );
}
