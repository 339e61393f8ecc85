import { Dropdown, Tabs } from 'antd';
import { MoreOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PersonalView, ViewSetting } from '../api/list-view-api.ts';

export type ActiveTab = { kind: 'view'; code: string } | { kind: 'personal'; id: string };
export const tabKey = (tab: ActiveTab) => (tab.kind === 'view' ? `v:${tab.code}` : `p:${tab.id}`);
export const tabOf = (key: string): ActiveTab => (key.startsWith('p:') ? { kind: 'personal', id: key.slice(2) } : { kind: 'view', code: key.slice(2) });

type PersonalAction = 'rename' | 'left' | 'right' | 'delete';

/** The form's designed views, then the caller's personal views (each with rename, move and delete). */
export function ViewTabs({ views, personal, active, onActivate, onPersonal }: {
  views: ViewSetting[];
  personal: PersonalView[];
  active: ActiveTab;
  onActivate: (tab: ActiveTab) => void;
  onPersonal: (view: PersonalView, action: PersonalAction) => void;
}) {
  const { t } = useTranslation();
  const shown = personal.filter((p) => p.Visible);
  const items = [
    ...views.map((v) => ({ key: tabKey({ kind: 'view', code: v.code }), label: v.title })),
    ...shown.map((p, i) => ({
      key: tabKey({ kind: 'personal', id: p.Id }),
      label: (
        <span>
          <UserOutlined style={{ marginInlineEnd: 4 }} />
          {p.Title}
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'rename', label: t('listView.personal.rename') },
                { key: 'left', label: t('listView.personal.left'), disabled: i === 0 },
                { key: 'right', label: t('listView.personal.right'), disabled: i === shown.length - 1 },
                { key: 'delete', label: t('listView.personal.delete'), danger: true },
              ],
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                onPersonal(p, key as PersonalAction);
              },
            }}
          >
            <MoreOutlined role="button" aria-label={t('listView.personal.more', { title: p.Title })} style={{ marginInlineStart: 6 }} onClick={(e) => e.stopPropagation()} />
          </Dropdown>
        </span>
      ),
    })),
  ];
  return <Tabs size="small" activeKey={tabKey(active)} items={items} onChange={(key) => onActivate(tabOf(key))} style={{ marginBottom: 0 }} />;
}
