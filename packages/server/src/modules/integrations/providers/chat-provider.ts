// The one interface every chat platform (DingTalk now; WeCom, Feishu, WeChat next) implements for sign-in and
// directory sync (issue 25, docs/decisions/0052). An adapter speaks its platform's HTTP protocol at a base URL taken
// from the engine's settings, so a test or a private deployment points it at another server.

export type ChatProviderName = 'dingtalk';

/** How the person arrived: QR scan on the login page, the corporate workplace, an app inside the client, OA. */
export type AuthCodeKind = 'scan' | 'corp' | 'app' | 'oa';

export interface ChatProviderSettings {
  baseUrl: string;
  appKey: string;
  appSecret: string;
  corpId: string;
  agentId: string;
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

/** A refusal or failure of the platform, with its own code; the caller maps it to the catalogue. */
export class ChatPlatformError extends Error {
  constructor(
    readonly platformCode: number | string,
    message: string,
    readonly kind: 'credentials' | 'auth-code' | 'unreachable' | 'other',
  ) {
    super(message);
  }
}

export interface ChatProvider {
  readonly name: ChatProviderName;
  /** The platform's public API address, used when the settings name none. */
  readonly defaultBaseUrl: string;
  /** The person behind a temporary auth code (free login, QR scan). */
  userByAuthCode(settings: ChatProviderSettings, code: string, kind: AuthCodeKind): Promise<PlatformUser>;
  /** The whole directory: departments (parents before children) and users. */
  directory(settings: ChatProviderSettings): Promise<PlatformDirectory>;
}
