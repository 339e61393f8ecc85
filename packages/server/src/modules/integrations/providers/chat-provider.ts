// The one interface every chat platform (DingTalk, WeCom, Feishu; WeChat next) implements for sign-in and
// directory sync (issue 25, docs/decisions/0052). An adapter speaks its platform's HTTP protocol at a base URL taken
// from the engine's settings, so a test or a private deployment points it at another server.

export type ChatProviderName = 'dingtalk' | 'wxwork' | 'feishu' | 'wechat';

/** How the person arrived: QR scan on the login page, the corporate workplace, an app inside the client, OA. */
export type AuthCodeKind = 'scan' | 'corp' | 'app' | 'oa';

export interface ChatProviderSettings {
  baseUrl: string;
  appKey: string;
  appSecret: string;
  corpId: string;
  agentId: string;
  /** The fetch the adapter speaks through: the platform's outbound fetch (docs/decisions/0072). */
  http: typeof fetch;
}

/** A person as the platform knows them. */
export interface PlatformUser {
  /** The platform's user id in the organisation (DingTalk userid). */
  id: string;
  name: string;
  mobile?: string;
  email?: string;
  employeeNo?: string;
  /** Platform department ids; the first is the main one. */
  departmentIds: string[];
  /** Department ids this person manages. */
  leaderOf: string[];
  active: boolean;
}

export interface PlatformDepartment {
  id: string;
  /** null for the platform's root (the organisation itself). */
  parentId: string | null;
  name: string;
}

export interface PlatformDirectory {
  departments: PlatformDepartment[];
  users: PlatformUser[];
}

/** What a change event of the platform names: people or departments that were added, changed, moved or left. */
export interface DirectoryChange {
  /** The platform's event type (DingTalk: user_add_org, org_dept_modify…). */
  type: string;
  kind: 'user' | 'department';
  subjects: string[];
}

/** The keys the platform signs and encrypts its change pushes with (set in its developer console and here). */
export interface CallbackKeys {
  token: string;
  aesKey: string;
}

/** A push as it reached the callback URL: the body unparsed (the platforms sign the exact text; WeCom sends XML). */
export interface CallbackPush {
  method: 'GET' | 'POST';
  query: Record<string, string | undefined>;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  body: string;
}

/** A push that checked out: its event type, the change it names, and the answer when it is not `reply`'s. */
export interface OpenedPush {
  type: string;
  /** null for events that change nothing here, such as the URL check. */
  change: DirectoryChange | null;
  /** The URL check's own answer (WeCom: the decrypted echostr; Feishu: { challenge }). */
  answer?: unknown;
}

/** Receiving the platform's change pushes at the engine's callback URL. */
export interface ChangeCallbacks {
  /** Checks a push as the platform signs it and opens it; null when the signature or the content does not hold. */
  open(settings: ChatProviderSettings, keys: CallbackKeys, push: CallbackPush): OpenedPush | null;
  /** The answer the platform expects for a push it should not send again. */
  reply(settings: ChatProviderSettings, keys: CallbackKeys): unknown;
}

/** Part of the directory, read again after change events: what still exists, and who or what is gone. */
export interface PlatformDirectoryPart extends PlatformDirectory {
  goneUsers: string[];
  goneDepartments: string[];
}

/** A refusal or failure of the platform, with its own code; the caller maps it to the catalogue. */
export class ChatPlatformError extends Error {
  constructor(
    readonly platformCode: number | string,
    message: string,
    /** not-member: the code is good but its person is not in the app's organisation (or not in its visible range). */
    readonly kind: 'credentials' | 'auth-code' | 'not-member' | 'unreachable' | 'other',
  ) {
    super(message);
  }
}

export interface ChatProvider {
  readonly name: ChatProviderName;
  /** The platform's public API address, used when the settings name none. */
  readonly defaultBaseUrl: string;
  /**
   * The platform's QR-login page for the browser: it shows the code to scan and, once the person confirms on the
   * phone, sends the browser to `redirectUri` with a code and the `state`.
   */
  scanUrl(settings: ChatProviderSettings, flow: { state: string; redirectUri: string }): string;
  /** The person behind a temporary auth code (free login, QR scan); `redirectUri` is the scan's, where it matters. */
  userByAuthCode(settings: ChatProviderSettings, code: string, kind: AuthCodeKind, redirectUri?: string): Promise<PlatformUser>;
  /** The whole directory: departments (parents before children) and users; absent where the platform has none (WeChat). */
  directory?(settings: ChatProviderSettings): Promise<PlatformDirectory>;
  /** The platform's change pushes, where they are supported. */
  readonly callbacks?: ChangeCallbacks;
  /** Only the named departments (with the root, parents before children) and people, as they are now. */
  directoryPart?(settings: ChatProviderSettings, ids: { departments: string[]; users: string[] }): Promise<PlatformDirectoryPart>;
}
