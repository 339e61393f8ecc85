import type { ReactNode } from 'react';
import { Flex, Tabs, theme } from 'antd';
import { useTranslation } from 'react-i18next';

export interface SideTab {
  key: string;
  label: string;
  children: ReactNode;
}

interface PhoneRecordLayoutProps {
  header: ReactNode;
  /** The record's fields. */
  record: ReactNode;
  /** 流程日志, 评论, 数据日志…: tabs after the record's own. */
  side: SideTab[];
  /** The action bar, kept at the bottom of the screen. */
  bar: ReactNode;
}

/**
 * A record on a phone: the whole screen is the record and the page scrolls; the side panels are tabs beside the
 * record's (the record first), the actions a bar at the bottom.
 */
export function PhoneRecordLayout({ header, record, side, bar }: PhoneRecordLayoutProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical style={{ minHeight: '100%' }}>
      {header}
      <div style={{ flex: 1 }}>
        {side.length > 0 ? (
          <Tabs
            items={[{ key: 'record', label: t('formRuntime.side.record'), children: record }, ...side.map((tab) => ({ ...tab, children: <div style={{ padding: `0 ${token.padding}px ${token.padding}px` }}>{tab.children}</div> }))]}
            tabBarStyle={{ margin: 0, padding: `0 ${token.padding}px` }}
          />
        ) : (
          record
        )}
      </div>
      {bar}
    </Flex>
  );
}
