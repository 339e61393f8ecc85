/** Routes of the entry application: sign-in, registration and authorisation (calls.md §2). */

// calls.md §2: the entry app is served under /entry.
export const ENTRY_BASE_PATH = 'entry';

// calls.md §2: paths inside the entry app. Path parameters use the ':name' form of the router.
export const EntryRoute = {
  Home: '/',
  Login: '/login',
  LoginMobile: '/login/mobile',
  LoginCorp: '/login/corp',
  LoginDingtalk: '/login/dingtalk',
  LoginWechat: '/login/wechat',
  LoginWxwork: '/login/wxwork',
  LoginFeishu: '/login/feishu',
  LoginReset: '/login/reset',
  LoginExt: '/login/ext',
  LoginVerifyCode: '/login/verifyCode',
  MobileCode: '/mobile/code',
  Register: '/register',
  RegisterAuthCode: '/register/authCode',
  RegisterCorp: '/register/corp',
  RegisterDingtalk: '/register/dingtalk',
  RegisterWechat: '/register/wechat',
  RegisterSuccess: '/register/success',
  Auth: '/auth',
  AuthWxwork: '/auth/wxwork',
  AuthExternal: '/auth/external/:code',
  AuthDingtalk: '/auth/dingtalk',
  AuthFeishu: '/auth/feishu',
  Error: '/error',
  Success: '/success',
  AssOrg: '/ass-org',
  MakeOrg: '/make-org',
  Logout: '/logout',
  Expire: '/expire',
} as const;
export type EntryRoutePath = (typeof EntryRoute)[keyof typeof EntryRoute];

export interface EntryRouteDefinition {
  readonly path: EntryRoutePath;
  readonly purpose: string;
  /** False for paths kept only as constants (calls.md §2 "no page shown"). */
  readonly hasPage: boolean;
  /** False for the one route drawn outside the common layout. */
  readonly inLayout: boolean;
  /** Set when the path only forwards to another route. */
  readonly redirectTo?: EntryRoutePath;
}

const page = (path: EntryRoutePath, purpose: string): EntryRouteDefinition => ({ path, purpose, hasPage: true, inLayout: true });
const constantOnly = (path: EntryRoutePath, purpose: string): EntryRouteDefinition => ({ path, purpose, hasPage: false, inLayout: true });
const redirect = (path: EntryRoutePath, to: EntryRoutePath): EntryRouteDefinition => ({
  path,
  purpose: `redirects to ${to}`,
  hasPage: false,
  inLayout: true,
  redirectTo: to,
});

// calls.md §2: the route table in order.
export const ENTRY_ROUTES: readonly EntryRouteDefinition[] = [
  page(EntryRoute.Home, 'login home'),
  redirect(EntryRoute.Login, EntryRoute.Home),
  redirect(EntryRoute.LoginMobile, EntryRoute.Home),
  page(EntryRoute.LoginCorp, 'corporate login'),
  page(EntryRoute.LoginDingtalk, 'login through a chat platform'),
  page(EntryRoute.LoginWechat, 'login through a chat platform'),
  page(EntryRoute.LoginWxwork, 'login through a chat platform'),
  constantOnly(EntryRoute.LoginFeishu, 'login through a chat platform'),
  page(EntryRoute.LoginReset, 'reset password'),
  page(EntryRoute.LoginExt, 'identity verification with an external login code'),
  page(EntryRoute.LoginVerifyCode, 'verification-code login'),
  { path: EntryRoute.MobileCode, purpose: 'verification-code login on mobile', hasPage: true, inLayout: false },
  page(EntryRoute.Register, 'register'),
  page(EntryRoute.RegisterAuthCode, 'register with an authorisation code'),
  page(EntryRoute.RegisterCorp, 'register an enterprise'),
  page(EntryRoute.RegisterDingtalk, 'register through a chat platform'),
  page(EntryRoute.RegisterWechat, 'bind a personal WeChat account'),
  page(EntryRoute.RegisterSuccess, 'registration done'),
  page(EntryRoute.Auth, 'authorisation'),
  page(EntryRoute.AuthWxwork, 'authorisation'),
  page(EntryRoute.AuthExternal, 'external link authorisation'),
  constantOnly(EntryRoute.AuthDingtalk, 'authorisation'),
  constantOnly(EntryRoute.AuthFeishu, 'authorisation'),
  page(EntryRoute.Error, 'error result'),
  page(EntryRoute.Success, 'success result'),
  page(EntryRoute.AssOrg, 'organisation interconnection'),
  page(EntryRoute.MakeOrg, 'organisation interconnection'),
  page(EntryRoute.Logout, 'sign out'),
  page(EntryRoute.Expire, 'session expired'),
];

// calls.md §2: targets that belong to other apps, reached after sign-in or from the workbench.
export const WORKBENCH_PATH = '/workbench';
export const FORM_DESIGNER_PATH = '/form/designer';
/** The workflow designer of a workflow form: `${WORKFLOW_DESIGNER_PATH}?schemaCode=<code>` (docs/decisions/0018). */
export const WORKFLOW_DESIGNER_PATH = '/workflow/designer';
/** A form's automations (issue 21): `${FORM_AUTOMATION_PATH}/<schemaCode>`. */
export const FORM_AUTOMATION_PATH = '/form/automation';
/** A form's custom code and its run log (issue 43): `${FORM_CODE_PATH}/<schemaCode>`. */
export const FORM_CODE_PATH = '/form/code';
/** An app's custom APIs (issue 43): `${APP_CODE_PATH}/<appCode>`. */
export const APP_CODE_PATH = '/app/code';
/** Records of a form rendered with a print template for the browser's print dialog (issue 24): `${FORM_PRINT_PATH}/<schemaCode>?ids=a,b[&templateId=]`. */
export const FORM_PRINT_PATH = '/form/print';
/** A form's print templates and their designer (issue 24): `${FORM_PRINT_TEMPLATES_PATH}/<schemaCode>`. */
export const FORM_PRINT_TEMPLATES_PATH = '/form/print-templates';
/** A form's public fill-in link (issue 19, ExternalForm): `${PUBLIC_FORM_PATH}/<engineCode>/<token>`, no account needed. */
export const PUBLIC_FORM_PATH = '/external/form';
/** A record shared read-only by link (issue 19, ExternalShare): `${SHARED_RECORD_PATH}/<engineCode>/<token>`. */
export const SHARED_RECORD_PATH = '/external/share';
/** A form's open-query page (issue 19, OpenQuery): `${OPEN_QUERY_PATH}/<engineCode>/<token>`, no account needed. */
export const OPEN_QUERY_PATH = '/external/query';
/** A short link (POST /v1/bizdata/shortlink): `${SHORT_LINK_PATH}/<code>` redirects to the page it stands for. */
export const SHORT_LINK_PATH = '/s';
/** The form runtime on a page of its own: `${FORM_RUNTIME_PATH}/<schemaCode>[/<objectId>][?mode=View|Edit|Print]`. */
export const FORM_RUNTIME_PATH = '/form/open';

/** The path of the external-link authorisation page for one code (calls.md §2 /auth/external/{code}). */
export function externalAuthPath(code: string): string {
  return EntryRoute.AuthExternal.replace(':code', encodeURIComponent(code));
}
