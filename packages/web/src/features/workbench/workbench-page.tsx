import { lazy, Suspense } from 'react';
import { Layout, Skeleton, theme } from 'antd';
import { useIsPhone } from '../../lib/use-is-phone.ts';
import { PcWorkbench } from './components/pc-workbench.tsx';
import { UserInfoError } from './components/user-info-error.tsx';
import { useFeatureSwitches, useUserInfo } from './hooks/use-workbench-data.ts';
import { useTokenRefresh } from './hooks/use-token-refresh.ts';

// The phone layout and its library load only on phones.
const PhoneWorkbench = lazy(() => import('./phone/phone-workbench.tsx').then((m) => ({ default: m.PhoneWorkbench })));

/** /workbench/*: a signed-in page (the route loader sends visitors without a token to the login home). */
export function WorkbenchPage() {
  const { token } = theme.useToken();
  const userInfo = useUserInfo();
  const isPhone = useIsPhone();
  useTokenRefresh();
  // calls.md §9: the feature switches load once when the workbench starts.
  useFeatureSwitches();

  if (userInfo.isError) {
    return <UserInfoError error={userInfo.error} onRetry={() => void userInfo.refetch()} />;
  }
  const loading = (
    <Layout style={{ minHeight: '100vh', padding: token.paddingLG }}>
      <Skeleton active paragraph={{ rows: 8 }} />
    </Layout>
  );
  if (!userInfo.data) return loading;
  if (!isPhone) return <PcWorkbench info={userInfo.data} />;
  return (
    <Suspense fallback={loading}>
      <PhoneWorkbench info={userInfo.data} />
    </Suspense>
  );
}
