import { Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DepartmentPanel } from './components/department-panel.tsx';
import { PostPanel } from './components/post-panel.tsx';
import { RolePanel } from './components/role-panel.tsx';

const TABS = ['departments', 'roles', 'posts'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => (TABS as readonly (string | null)[]).includes(value);

/** /admin/org (组织架构): departments and members, roles, posts. The tab is in the address so it can be shared. */
export function OrgAdminPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab');
  const active: Tab = isTab(tab) ? tab : 'departments';
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('titles.orgAdmin')}
      </Typography.Title>
      <Tabs
        activeKey={active}
        onChange={(key) => setParams(key === 'departments' ? {} : { tab: key }, { replace: true })}
        items={[
          { key: 'departments', label: t('orgAdmin.tabs.departments'), children: <DepartmentPanel /> },
          { key: 'roles', label: t('orgAdmin.tabs.roles'), children: <RolePanel /> },
          { key: 'posts', label: t('orgAdmin.tabs.posts'), children: <PostPanel /> },
        ]}
      />
    </>
  );
}
