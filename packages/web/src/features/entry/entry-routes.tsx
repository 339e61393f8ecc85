import type { ComponentType } from 'react';
import { Navigate, useLocation, type RouteObject } from 'react-router';
import { titled } from '../../lib/route-handle.ts';
import { loadWorkbenchCatalogue } from '../../lib/i18n.ts';
import type { IntegrationName } from './pages/not-configured-page.tsx';
import type { ChatPlatform } from './api/auth-api.ts';

// Each page is its own chunk; the layout is shared by all of them. Pages come with the query cache
// (lib/query-provider.tsx), loaded beside them; the login home and the layout do without it (docs/decisions/0084).
const withQueries = (Component: ComponentType) => import('../../lib/query-provider.tsx').then((m) => m.withQueries(Component));
const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): RouteObject['lazy'] =>
  () => load().then((module) => withQueries(module[name])).then((Component) => ({ Component }));
const pageWithoutQueries = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): RouteObject['lazy'] =>
  () => load().then((module) => ({ Component: module[name] }));

// The association pages (decision 0091) come after sign-in: their texts are in the workbench catalogue, loaded beside them.
const associationPage = (name: 'AssociateOrgPage' | 'MakeOrgPage'): RouteObject['lazy'] => () =>
  Promise.all([import('./pages/associate-org-page.tsx'), loadWorkbenchCatalogue()])
    .then(([module]) => withQueries(module[name]))
    .then((Component) => ({ Component }));

const notConfigured = (name: Parameters<typeof titled>[0], integration: IntegrationName): RouteObject => ({
  handle: titled(name),
  lazy: () =>
    import('./pages/not-configured-page.tsx').then((m) => ({
      Component: () => <m.NotConfiguredPage integration={integration} />,
    })),
});

const chatScan = (name: Parameters<typeof titled>[0], platform: ChatPlatform): RouteObject => ({
  handle: titled(name),
  lazy: () =>
    import('./pages/chat-scan-page.tsx')
      .then((m) => withQueries(() => <m.ChatScanPage platform={platform} />))
      .then((Component) => ({ Component })),
});

/** The entry app under /entry (calls.md §2). */
export const entryRoutes: RouteObject = {
  path: '/entry',
  lazy: pageWithoutQueries(() => import('./entry-layout.tsx'), 'EntryLayout'),
  children: [
    { index: true, handle: titled('login'), lazy: pageWithoutQueries(() => import('./pages/login-home-page.tsx'), 'LoginHomePage') },
    // calls.md §2: /login and /login/mobile are old addresses of the login home.
    { path: 'login', element: <KeepQueryRedirect to="/entry/" /> },
    { path: 'login/mobile', element: <KeepQueryRedirect to="/entry/" /> },
    { path: 'login/corp', handle: titled('corpLogin'), lazy: page(() => import('./pages/corp-login-page.tsx'), 'CorpLoginPage') },
    { path: 'login/sso/callback', handle: titled('ssoLogin'), lazy: page(() => import('./pages/sso-callback-page.tsx'), 'SsoCallbackPage') },
    ...(['dingtalk', 'wxwork', 'feishu', 'wechat'] as const).map((platform) => ({ path: `login/${platform}`, ...chatScan(`${platform}Login` as const, platform) })),
    { path: 'login/reset', handle: titled('resetPassword'), lazy: page(() => import('./pages/reset-password-page.tsx'), 'ResetPasswordPage') },
    { path: 'login/exchange', handle: titled('exchangeLogin'), lazy: page(() => import('./pages/exchange-login-page.tsx'), 'ExchangeLoginPage') },
    { path: 'login/ext', handle: titled('externalLogin'), lazy: page(() => import('./pages/external-login-page.tsx'), 'ExternalLoginPage') },
    { path: 'login/verifyCode', handle: titled('verifyCodeLogin'), lazy: page(() => import('./pages/verify-code-login-page.tsx'), 'VerifyCodeLoginPage') },
    { path: 'register', handle: titled('register'), lazy: page(() => import('./pages/register-page.tsx'), 'RegisterPage') },
    { path: 'register/authCode', handle: titled('registerAuthCode'), lazy: page(() => import('./pages/register-page.tsx'), 'RegisterPage') },
    { path: 'register/corp', handle: titled('registerCorp'), lazy: page(() => import('./pages/register-page.tsx'), 'RegisterCorpPage') },
    { path: 'register/dingtalk', ...notConfigured('registerDingtalk', 'dingtalkRegister') },
    // A signed-in person's page: its texts are the workbench catalogue's, loaded with it, not the sign-in part's.
    { path: 'register/wechat', handle: titled('registerWechat'), lazy: page(() => loadWorkbenchCatalogue().then(() => import('./pages/wechat-binding-page.tsx')), 'WechatBindingPage') },
    { path: 'register/success', handle: titled('registerSuccess'), lazy: page(() => import('./pages/register-success-page.tsx'), 'RegisterSuccessPage') },
    { path: 'auth', ...notConfigured('auth', 'auth') },
    { path: 'auth/wxwork', ...notConfigured('authWxwork', 'wxworkAuth') },
    { path: 'auth/external/:code', ...notConfigured('authExternal', 'externalAuth') },
    { path: 'error', handle: titled('error'), lazy: page(() => import('./pages/result-page.tsx'), 'ErrorResultPage') },
    { path: 'success', handle: titled('success'), lazy: page(() => import('./pages/result-page.tsx'), 'SuccessResultPage') },
    { path: 'ass-org', handle: titled('associateOrg'), lazy: associationPage('AssociateOrgPage') },
    { path: 'make-org', handle: titled('makeOrg'), lazy: associationPage('MakeOrgPage') },
    { path: 'join/:token', handle: titled('join'), lazy: page(() => import('./pages/join-page.tsx'), 'JoinPage') },
    { path: 'sign/:token', handle: titled('phoneSign'), lazy: page(() => import('./pages/phone-sign-page.tsx'), 'PhoneSignPage') },
    { path: 'logout', handle: titled('logout'), lazy: page(() => import('./pages/logout-page.tsx'), 'LogoutPage') },
    { path: 'expire', handle: titled('expire'), lazy: page(() => import('./pages/expire-page.tsx'), 'ExpirePage') },
    { path: '*', handle: titled('notFound'), lazy: page(() => import('../../components/not-found-page.tsx'), 'NotFoundPage') },
  ],
};

/** A redirect that keeps the query string, so redirectUrl and engineCode survive old links. */
function KeepQueryRedirect({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={{ pathname: to, search }} replace />;
}
