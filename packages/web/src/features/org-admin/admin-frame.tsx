import { Button, Flex, Layout, Menu, Result, Skeleton, Typography, theme } from 'antd';
import { ApartmentOutlined, ApiOutlined, AppstoreAddOutlined, ArrowLeftOutlined, ControlOutlined, DeploymentUnitOutlined, HistoryOutlined, LinkOutlined, LoginOutlined, NotificationOutlined, RobotOutlined, ScanOutlined } from '@ant-design/icons';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ProductMark } from '../../components/product-mark.tsx';
import { UserInfoError } from '../workbench/components/user-info-error.tsx';
import { UserMenu } from '../workbench/components/user-menu.tsx';
import { useUserInfo } from '../workbench/hooks/use-workbench-data.ts';

// The console's pages; more join as their issues land (apps, permissions, settings).
const ADMIN_PAGES = [
  { path: '/admin/org', icon: <ApartmentOutlined />, labelKey: 'titles.orgAdmin' },
  { path: '/admin/associated-org', icon: <LinkOutlined />, labelKey: 'associatedOrg.title' },
  { path: '/admin/open-api', icon: <ApiOutlined />, labelKey: 'openApi.title' },
  { path: '/admin/notification-channels', icon: <NotificationOutlined />, labelKey: 'notificationChannels.title' },
  { path: '/admin/plugins', icon: <AppstoreAddOutlined />, labelKey: 'plugins.title' },
  { path: '/admin/connectors', icon: <DeploymentUnitOutlined />, labelKey: 'connectors.title' },
  { path: '/admin/ai', icon: <RobotOutlined />, labelKey: 'ai.title' },
  { path: '/admin/ocr-templates', icon: <ScanOutlined />, labelKey: 'ocr.templates.title' },
  { path: '/admin/sign-in', icon: <LoginOutlined />, labelKey: 'signInSettings.title' },
  { path: '/admin/oplog', icon: <HistoryOutlined />, labelKey: 'oplog.title' },
  { path: '/admin/feature-switches', icon: <ControlOutlined />, labelKey: 'featureSwitchSettings.title' },
] as const;

/**
 * /admin: the admin console's frame (top bar, page menu). Only Administrators see it; anyone else who opens
 * the address gets a 403 page (the server refuses their writes anyway, docs/decisions/0003).
 */
export function AdminFrame() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const userInfo = useUserInfo();
  const toWorkbench = () => navigate('/workbench');

  if (userInfo.isError) {
    return <UserInfoError error={userInfo.error} onRetry={() => void userInfo.refetch()} />;
  }
  if (!userInfo.data) return <Skeleton active paragraph={{ rows: 8 }} style={{ padding: token.paddingLG }} />;
  if (!userInfo.data.user.isAdmin) {
    return (
      <Result
        status="403"
        title={t('admin.forbiddenTitle')}
        subTitle={t('admin.forbiddenHint')}
        extra={
          <Button type="primary" onClick={toWorkbench}>
            {t('admin.backToWorkbench')}
          </Button>
        }
      />
    );
  }

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex
        component="header"
        align="center"
        justify="space-between"
        style={{ height: 56, padding: `0 ${token.paddingLG}px`, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      >
        <Flex align="center" gap="middle">
          <ProductMark size="small" />
          <Typography.Text strong>{t('admin.console')}</Typography.Text>
          <Typography.Text type="secondary">{userInfo.data.currentEngine.engineName}</Typography.Text>
        </Flex>
        <Flex align="center" gap="small">
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={toWorkbench}>
            {t('admin.backToWorkbench')}
          </Button>
          <UserMenu userName={userInfo.data.user.name} />
        </Flex>
      </Flex>
      <Layout>
        <Layout.Sider width={160} theme="light" style={{ borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}>
          <Menu
            mode="inline"
            aria-label={t('admin.pages')}
            style={{ borderInlineEnd: 'none' }}
            selectedKeys={[pathname]}
            onClick={({ key }) => navigate(key)}
            items={ADMIN_PAGES.map((page) => ({ key: page.path, icon: page.icon, label: t(page.labelKey) }))}
          />
        </Layout.Sider>
        <Layout.Content style={{ padding: token.paddingLG, minWidth: 0 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
