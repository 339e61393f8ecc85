import { z } from 'zod';
import { EngineCode, Mobile, VerifyCode } from '../auth/fields.ts';
import { LoginResult } from '../auth/sign-in.ts';

// Sign-in through an outside identity provider (issue 25): an engine's enterprise single sign-on by OpenID Connect or
// SAML 2.0 (docs/decisions/0051, 0087). Settings are the Administrator's; the client secret is write-only (answers
// carry `hasClientSecret`, and a save that leaves it out keeps the stored one). SAML holds no secret: the identity
// provider's certificate is public, and the platform does not sign its requests.

/** The protocol the engine's single sign-on speaks. */
export const SsoProtocol = z.enum(['oidc', 'saml']);
export type SsoProtocol = z.infer<typeof SsoProtocol>;

/** The NameID formats a SAML request may ask for. */
export const SamlNameIdFormat = z.enum([
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
]);
export type SamlNameIdFormat = z.infer<typeof SamlNameIdFormat>;

/** The attribute name that stands for the assertion's NameID itself in the attribute mapping. */
export const SAML_NAME_ID = 'NameID';

/** What the identity provider's claim is compared with to find the engine's user. */
export const SsoMatchBy = z.enum(['mobile', 'email', 'employeeNo']);
export type SsoMatchBy = z.infer<typeof SsoMatchBy>;

/** The standard claim each match reads unless the settings name another. */
export const SSO_DEFAULT_CLAIMS: Record<SsoMatchBy, string> = { mobile: 'phone_number', email: 'email', employeeNo: 'employee_number' };

/** The SAML attribute each match reads unless the settings name another (or NameID). */
export const SAML_DEFAULT_ATTRIBUTES: Record<SsoMatchBy, string> = { mobile: 'mobile', email: 'email', employeeNo: 'employeeNumber' };

/** Minutes a started sign-in (its state, nonce and PKCE verifier) may take to come back. */
export const SSO_FLOW_MINUTES = 10;

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2000);
// SAML attribute names are often URIs (http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress).
const ClaimName = z.string().trim().regex(/^[A-Za-z0-9_.:\/#-]{1,200}$/);
const EntityId = z.string().trim().min(1).max(1000).regex(/^\S+$/);

/** SAML: the identity provider's side and what the platform asks for. */
export const SamlSettings = z.strictObject({
  /** The identity provider's single sign-on address (HTTP-Redirect binding). */
  entryPoint: HttpUrl,
  /** The identity provider's signing certificate(s), PEM; several during a rollover. */
  idpCert: z.string().trim().min(1).max(20_000),
  /** The identity provider's entity ID: the Issuer of its answers. */
  idpIssuer: EntityId,
  /** This platform's entity ID (the audience the assertions must name). */
  spEntityId: EntityId,
  nameIdFormat: SamlNameIdFormat,
});
export type SamlSettings = z.infer<typeof SamlSettings>;

export const SsoSettingSaveBody = z
  .strictObject({
    /** Absent: OpenID Connect (the only protocol before SAML). */
    protocol: SsoProtocol.default('oidc'),
    enabled: z.boolean(),
    /** OpenID Connect: the issuer; its discovery document is read from <issuerUrl>/.well-known/openid-configuration. */
    issuerUrl: HttpUrl.or(z.literal('')).default(''),
    clientId: z.string().trim().max(255).default(''),
    /** Write-only: absent or empty keeps the stored one. */
    clientSecret: z.string().max(1000).optional(),
    /** Scopes asked for besides openid. */
    scopes: z.string().trim().max(500).regex(/^[A-Za-z0-9_:. -]*$/).default(''),
    /** SAML's settings; required when the protocol is SAML, kept when given for OpenID Connect. */
    saml: SamlSettings.optional(),
  matchBy: SsoMatchBy,
  /** The claim holding the value matched; empty: the standard one of matchBy. */
  claim: ClaimName.or(z.literal('')),
  /** An unknown person with a mobile number (claim phone_number) becomes a user of the company root. */
  createUsers: z.boolean(),
    /**
     * The address the provider sends the browser back to; registered with the provider as the redirect URI. For SAML
     * its origin is this site's, from which the assertion consumer and metadata addresses are made.
     */
    callbackUrl: HttpUrl,
  })
  .superRefine((body, ctx) => {
    if (body.protocol === 'saml') {
      if (!body.saml) ctx.addIssue({ code: 'custom', path: ['saml'], message: 'SAML settings are required' });
      return;
    }
    if (!body.issuerUrl) ctx.addIssue({ code: 'custom', path: ['issuerUrl'], message: 'The issuer is required' });
    if (!body.clientId) ctx.addIssue({ code: 'custom', path: ['clientId'], message: 'The client ID is required' });
  });
export type SsoSettingSaveBody = z.infer<typeof SsoSettingSaveBody>;

export const SsoSettingDto = z.object({
  configured: z.boolean(),
  protocol: SsoProtocol,
  enabled: z.boolean(),
  issuerUrl: z.string(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  scopes: z.string(),
  matchBy: SsoMatchBy,
  claim: z.string(),
  createUsers: z.boolean(),
  callbackUrl: z.string(),
  /** The callback address of this site, offered when none is saved yet. */
  suggestedCallbackUrl: z.string(),
  /** SAML's settings (defaults when none are saved). */
  saml: SamlSettings.extend({ entryPoint: z.string(), idpCert: z.string(), idpIssuer: z.string(), spEntityId: z.string() }),
  /** SAML: where the identity provider posts its answers (to register there), and this platform's metadata. */
  samlAcsUrl: z.string(),
  samlMetadataUrl: z.string(),
});
export type SsoSettingDto = z.infer<typeof SsoSettingDto>;

/** GET /v1/sysintergration/sso/setting: whether an engine signs in by SSO (public: the login page asks). */
export const SsoPublicSettingQuery = z.object({ engineCode: EngineCode.optional() }).passthrough();
export const SsoPublicSetting = z.object({ enabled: z.boolean() });

/**
 * GET /v1/login/sso: with engineCode it starts a sign-in (answers where to send the browser); with code and state it
 * completes one (answers the session). `redirectUrl` is where to go afterwards: a path of this site only.
 */
export const SsoLoginQuery = z
  .object({
    engineCode: EngineCode.optional(),
    redirectUrl: z.string().max(2000).optional(),
    code: z.string().min(1).max(4000).optional(),
    state: z.string().min(1).max(200).optional(),
    iss: z.string().max(2000).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    /** SAML: the one-use code the assertion consumer sent the browser back with. */
    saml: z.string().min(1).max(200).optional(),
    /** SAML: the browser key the start answered, kept by the browser that started the sign-in. */
    key: z.string().max(200).optional(),
  })
  .passthrough();
export type SsoLoginQuery = z.infer<typeof SsoLoginQuery>;

export const SsoStartResult = z.object({
  redirectUrl: z.string(),
  /**
   * SAML: a secret of the browser that starts the sign-in, to keep (sessionStorage) and send with the code it comes
   * back with; an answer posted from another browser cannot be redeemed without it (docs/decisions/0087).
   */
  browserKey: z.string().optional(),
});
export type SsoStartResult = z.infer<typeof SsoStartResult>;
export const SsoLoginResult = LoginResult.extend({ returnTo: z.string().nullable() });
export type SsoLoginResult = z.infer<typeof SsoLoginResult>;

// Chat platforms (DingTalk, WeCom, Feishu): the app's credentials, the platform's address, sign-in by temporary auth
// code or QR scan, and directory sync.

export const ChatProviderName = z.enum(['dingtalk', 'wxwork', 'feishu', 'wechat']);
/** The platforms with a directory to sync (WeChat has none). */
export const DIRECTORY_PROVIDERS = ['dingtalk', 'wxwork', 'feishu'] as const;
export type ChatProviderName = z.infer<typeof ChatProviderName>;

export const ChatSettingQuery = z.object({ provider: ChatProviderName }).passthrough();

/**
 * The form of each platform's push key: DingTalk's aes_key and WeCom's EncodingAESKey are 43 characters of base64 (32
 * bytes); Feishu's Encrypt Key is any text without spaces. WeChat has no directory pushes.
 */
export const CALLBACK_KEY_PATTERNS: Record<ChatProviderName, RegExp> = {
  dingtalk: /^[A-Za-z0-9+/]{43}$/,
  wxwork: /^[A-Za-z0-9+/]{43}$/,
  feishu: /^\S{1,128}$/,
  // The official account's EncodingAESKey (safe mode; decision 0097).
  wechat: /^[A-Za-z0-9+/]{43}$/,
};

/**
 * How an engine's people sign in with WeChat (decision 0097): the open platform's website login (a QR page of
 * WeChat's, 0078) or the engine's official account (a QR of the account on this site; the account's server pushes
 * the scan). The AppID and AppSecret are those of the app the method uses.
 */
export const WechatScanMethod = z.enum(['website', 'officialAccount']);
export type WechatScanMethod = z.infer<typeof WechatScanMethod>;

/** The official account's server Token: 3 to 32 letters or digits (its console's rule). */
export const WECHAT_PUSH_TOKEN_PATTERN = /^[A-Za-z0-9]{3,32}$/;

export const ChatSettingSaveBody = z.strictObject({
  provider: ChatProviderName,
  enabled: z.boolean(),
  /** The platform's API address; empty: the platform's public one. */
  baseUrl: HttpUrl.or(z.literal('')),
  appKey: z.string().trim().min(1).max(255),
  /** Write-only: absent or empty keeps the stored one. */
  appSecret: z.string().max(1000).optional(),
  corpId: z.string().trim().max(255),
  agentId: z.string().trim().max(64),
  /**
   * The keys of the platform's change pushes, from its developer console: DingTalk's token and aes_key, WeCom's Token and
   * EncodingAESKey, Feishu's Verification Token and Encrypt Key (CALLBACK_KEY_PATTERNS). Write-only: absent or empty
   * keeps the stored ones.
   */
  callbackToken: z.string().trim().max(128).optional(),
  callbackAesKey: z.string().trim().max(128).optional(),
  /** WeChat only: website login or the official account's scan (absent: website, as before 0097). */
  wechatMethod: WechatScanMethod.optional(),
}).superRefine((body, ctx) => {
  const key = body.callbackAesKey;
  if (key && !CALLBACK_KEY_PATTERNS[body.provider].test(key)) ctx.addIssue({ code: 'custom', path: ['callbackAesKey'], message: '密钥格式不正确' });
  if (body.provider === 'wechat' && body.callbackToken && !WECHAT_PUSH_TOKEN_PATTERN.test(body.callbackToken)) {
    ctx.addIssue({ code: 'custom', path: ['callbackToken'], message: 'Token 须为 3 到 32 位字母或数字' });
  }
});
export type ChatSettingSaveBody = z.infer<typeof ChatSettingSaveBody>;

export const ChatSettingDto = z.object({
  provider: ChatProviderName,
  configured: z.boolean(),
  enabled: z.boolean(),
  baseUrl: z.string(),
  defaultBaseUrl: z.string(),
  appKey: z.string(),
  hasAppSecret: z.boolean(),
  corpId: z.string(),
  agentId: z.string(),
  /** Both keys of the change pushes are stored (they are never returned). */
  hasCallbackKeys: z.boolean(),
  /** The address to give the platform for its change pushes; empty where the platform has none here. */
  callbackUrl: z.string(),
  /** Change events received and not yet applied by an incremental sync. */
  pendingEvents: z.number().int(),
  /** WeChat: the official account's EncodingAESKey is stored (safe mode). */
  hasCallbackAesKey: z.boolean(),
  /** WeChat: the sign-in method (other platforms: website, unused). */
  wechatMethod: WechatScanMethod,
});
export type ChatSettingDto = z.infer<typeof ChatSettingDto>;

/** GET /v1/login/dingtalk/corp|app|oa: the temporary auth code the client obtained, and the organisation. */
export const ChatLoginQuery = z.object({ engineCode: EngineCode, code: z.string().trim().min(1).max(500) }).passthrough();
/** POST /v1/login/feishu/corp: the code the Feishu client handed the page, and the organisation. */
export const ChatLoginBody = z.strictObject({ engineCode: EngineCode, code: z.string().trim().min(1).max(500) });

/**
 * GET /v1/login/{dingtalk|wxwork|feishu}/scan: with engineCode it starts a QR login (answers the platform's QR page to
 * open); with the code (DingTalk calls it authCode) and state the platform sent back it completes it (answers the
 * session). `redirectUrl` is where to go afterwards: a path of this site only.
 */
export const ChatScanQuery = z
  .object({
    engineCode: EngineCode.optional(),
    redirectUrl: z.string().max(2000).optional(),
    code: z.string().trim().min(1).max(500).optional(),
    authCode: z.string().trim().min(1).max(500).optional(),
    state: z.string().min(1).max(200).optional(),
  })
  .passthrough();
export type ChatScanQuery = z.infer<typeof ChatScanQuery>;

/** A signed-in user's personal WeChat (/entry/register/wechat, decision 0090): bound or not, and since when. */
export const WechatBinding = z.object({ bound: z.boolean(), boundTime: z.string().nullable() });
export type WechatBinding = z.infer<typeof WechatBinding>;
/** The scan's answer WeChat sent the browser back with, handed over once. */
export const WechatBindBody = z.strictObject({ code: z.string().trim().min(1).max(500), state: z.string().min(1).max(200) });
export type WechatBindBody = z.infer<typeof WechatBindBody>;

/** Minutes a started QR login may take until the platform sends the browser back. */
export const CHAT_SCAN_MINUTES = 5;

// The official account's scan (decision 0097): the start (GET /v1/login/wechat/scan with engineCode) answers this
// site's QR page with the scene and a browser key; the page asks for the scene's state until the account's server
// push says it was scanned, then that answer is the session.

/** Seconds the account's temporary QR code (and its scene) lives. */
export const WECHAT_SCENE_SECONDS = 300;
/** Longest wait of one poll of a scene (the answer comes as soon as the scan is pushed). */
export const WECHAT_SCENE_MAX_WAIT = 25;

export const WechatSceneQuery = z
  .object({
    scene: z.string().trim().min(1).max(64),
    /** The browser key the start answered: only the browser that asked may use the scene. */
    key: z.string().trim().min(1).max(200),
    /** Seconds to wait for the scan before answering "waiting" (0: answer at once). */
    wait: z.coerce.number().int().min(0).max(WECHAT_SCENE_MAX_WAIT).default(0),
  })
  .passthrough();
export type WechatSceneQuery = z.infer<typeof WechatSceneQuery>;

export const WechatSceneState = z.discriminatedUnion('status', [
  /** Not scanned yet: the QR image to show (WeChat's showqrcode) and when it stops working. */
  z.object({ status: z.literal('waiting'), qrUrl: z.string(), expiresAt: z.string() }),
  /** Scanned and followed or confirmed: the session of the WeChat's user. */
  z.object({ status: z.literal('signedIn'), login: SsoLoginResult }),
]);
export type WechatSceneState = z.infer<typeof WechatSceneState>;

/** A signed-in user's binding by the official account's code (decision 0097): the user's session is the credential. */
export const WechatBindSceneQuery = z
  .object({ scene: z.string().trim().min(1).max(64), wait: z.coerce.number().int().min(0).max(WECHAT_SCENE_MAX_WAIT).default(0) })
  .passthrough();
export type WechatBindSceneQuery = z.infer<typeof WechatBindSceneQuery>;
export const WechatBindSceneState = z.discriminatedUnion('status', [
  z.object({ status: z.literal('waiting'), qrUrl: z.string(), expiresAt: z.string() }),
  z.object({ status: z.literal('bound'), binding: WechatBinding }),
]);
export type WechatBindSceneState = z.infer<typeof WechatBindSceneState>;

// DingTalk shortcuts (calls.md §2 "/v1/shortcut/dingtalk"): entries of the organisation's DingTalk workplace that
// open an app or a form of the engine through DingTalk's free login.

export const SHORTCUTS_PER_ENGINE = 50;
const ShortcutName = z.string().trim().min(1).max(32);
export const DingtalkShortcutCreateBody = z.strictObject({ name: ShortcutName, nodeCode: z.string().trim().min(1).max(64) });
export const DingtalkShortcutUpdateBody = DingtalkShortcutCreateBody.extend({ id: z.string().min(1).max(64) });
export const DingtalkShortcutRemoveBody = z.strictObject({ id: z.string().min(1).max(64) });
export const DingtalkShortcut = z.object({
  id: z.string(),
  name: z.string(),
  nodeCode: z.string(),
  /** The app or form's display name; empty when it was removed since. */
  nodeName: z.string(),
  appCode: z.string(),
  /** What DingTalk opens: the site's DingTalk free-login page, which then opens the app or form. */
  url: z.string(),
  createdTime: z.string(),
});
export type DingtalkShortcut = z.infer<typeof DingtalkShortcut>;
export const DingtalkShortcutList = z.object({ list: z.array(DingtalkShortcut) });

/**
 * full: read the platform's whole directory; events: read again only what the received change events name (the
 * change pushes, decision 0077).
 */
export const DirectorySyncMode = z.enum(['full', 'events']);
export type DirectorySyncMode = z.infer<typeof DirectorySyncMode>;
export const DirectorySyncBody = z.strictObject({ provider: ChatProviderName, mode: DirectorySyncMode.optional() });

const Count = z.number().int();
export const DirectorySyncSummary = z.object({
  departments: z.object({ created: Count, updated: Count, bound: Count, unchanged: Count }),
  users: z.object({ created: Count, updated: Count, bound: Count, disabled: Count, unchanged: Count, skipped: Count }),
  managers: z.object({ updated: Count }),
  samples: z.object({
    createdDepartments: z.array(z.string()),
    updatedDepartments: z.array(z.string()),
    createdUsers: z.array(z.string()),
    updatedUsers: z.array(z.string()),
    disabledUsers: z.array(z.string()),
    skippedUsers: z.array(z.string()),
  }),
});
export type DirectorySyncSummary = z.infer<typeof DirectorySyncSummary>;

export const DirectorySyncStarted = z.object({ jobId: z.string() });

export const DirectorySyncRun = z.object({
  jobId: z.string(),
  state: z.string(),
  message: z.string().nullable(),
  createdTime: z.string(),
  finishedTime: z.string().nullable(),
  mode: DirectorySyncMode,
  result: DirectorySyncSummary.extend({ durationMs: Count, events: Count.optional() }).nullable(),
});
export const DirectorySyncLog = z.object({ list: z.array(DirectorySyncRun) });
export type DirectorySyncLog = z.infer<typeof DirectorySyncLog>;

// Mobile binding (calls.md §7): a chat-platform person with no mobile number there, not yet bound to a user, gets
// 200504 with a securityToken; proving a mobile number of the engine's user binds the two and signs in.
const SecurityToken = z.string().min(1).max(200);
export const BindMobileCodeBody = z.strictObject({ securityToken: SecurityToken, mobile: Mobile });
export const BindMobileBody = BindMobileCodeBody.extend({ code: VerifyCode });
export const ValidateMobileResult = z.object({ exists: z.boolean() });
/** Minutes a binding ticket lasts. */
export const BIND_TICKET_MINUTES = 15;

// Token exchange (GET /v1/token/exchange, decision 0079): a session trades itself for a one-use code another client
// (the computer's browser, opened from a chat client) trades for a session of its own.

/** Seconds an exchange code lives. */
export const TOKEN_EXCHANGE_SECONDS = 60;
/** With `code`: redeem it (no session needed). Without: the caller's session asks for a code. */
export const TokenExchangeQuery = z
  .object({ code: z.string().trim().min(1).max(200).optional(), redirectUrl: z.string().max(2000).optional() })
  .passthrough();
export const TokenExchangeCode = z.object({ code: z.string(), expiresIn: z.number().int(), openPath: z.string() });
export type TokenExchangeCode = z.infer<typeof TokenExchangeCode>;

/** The SAML addresses of one engine: /v1/login/sso/saml/{engineCode}/acs and …/metadata. */
export const SamlEngineParams = z.strictObject({ engineCode: EngineCode });

/** What the identity provider's page posts to the assertion consumer (HTTP-POST binding). */
export const SamlAcsBody = z
  .object({
    SAMLResponse: z.string().min(1).max(1_000_000),
    RelayState: z.string().max(2000).optional(),
  })
  .passthrough();
export type SamlAcsBody = z.infer<typeof SamlAcsBody>;

/** Seconds the code the assertion consumer hands the browser stays valid. */
export const SAML_HANDOFF_SECONDS = 60;
