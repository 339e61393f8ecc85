import { Layout, Skeleton, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { TopBar } from './components/top-bar.tsx';
import { UserInfoError } from './components/user-info-error.tsx';
import { WorkbenchHome } from './components/workbench-home.tsx';
import { useUserInfo } from './hooks/use-workbench-data.ts';
import { useTokenRefresh } from './hooks/use-token-refresh.ts';

/** /workbench: a signed-in page (the route loader sends visitors without a token to the login home). */
export function WorkbenchPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const userInfo = useUserInfo();
  useTokenRefresh();

  if (userInfo.isError) {
    return <UserInfoError error={userInfo.error} onRetry={() => void userInfo.refetch()} />;
  }
  return (
    <Layout style={{ minHeight: '100vh' }}>
      {userInfo.data ? <TopBar info={userInfo.data} /> : <Skeleton.Input active block style={{ height: 56 }} />}
      <Layout.Content style={{ padding: token.paddingLG }}>
        {userInfo.data ? <WorkbenchHome info={userInfo.data} /> : <Skeleton active paragraph={{ rows: 6 }} />}
      </Layout.Content>
    </Layout>
  );
}
