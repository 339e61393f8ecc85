import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { findEngine } from '../engine/engine.repo.ts';
import { loadProvider } from './provider-settings.ts';
import { platformError, signInPlatformPerson, usableSettings, type ChatDeps } from './chat-sign-in.ts';
import { browserKeyHash, claimSignInFlow, peekSignInFlow, sameBrowserKey } from './sign-in-flows.ts';
import { allowedReturnTo } from './sso.service.ts';
import { createSceneQr, followerIdentity, openAccountPush } from './providers/wechat-official-account.ts';
import type { CallbackPush } from './providers/chat-provider.ts';

// Sign-in by the engine's WeChat official account (issue 25, decision 0097). The start makes a one-use scene (a
// platform.sign_in_flows row keyed by the scene, holding the hash of a key only the asking browser gets) and the
// account's temporary QR code for it; the login page shows the code and asks for the scene's state. Scanning makes
// WeChat push SCAN or subscribe to the engine's push address, which marks the scene scanned by that openid (only a
// scene of that engine, unused and in time). The next ask of the asking browser then signs in the WeChat's user,
// exactly as the website login does (0078): bound by unionid or openid, else the number proof of 0061 (200504).

const SCENE_ERRORS = { invalid: 'ChatScanStateInvalid', expired: 'ChatScanStateExpired' } as const;
export const WECHAT_SCAN_PAGE = '/entry/login/wechat';

/** The official account's server address of an engine (entered in the account's console as 服务器地址). */
export const accountPushPath = (engineCode: string) => `/v1/sysintergration/wechat/push/${engineCode}`;

interface ScenePayload {
  qrUrl: string;
  /** A binding's scene: the signed-in user who asked. */
  userId?: string;
  /** Set by the push: the openid that scanned. */
  openid?: string;
}

/** The scenes of the account's QR codes: a sign-in (keyed to the asking browser) or a signed-in user's binding (0090). */
export const SCENE_KINDS = { signIn: 'wechat-scene', bind: 'wechat-bind-scene' } as const;
type SceneKind = (typeof SCENE_KINDS)[keyof typeof SCENE_KINDS];

/** A new scene and the account's QR code for it; `keyHash` binds it to a browser, `userId` to a signed-in user. */
export async function createScene(db: Db, settings: Parameters<typeof createSceneQr>[0], engineCode: string, kind: SceneKind, options: { keyHash?: string; returnTo?: string | null; userId?: string }, now = new Date()): Promise<string> {
  const scene = randomBytes(24).toString('base64url');
  let qr;
  try {
    qr = await createSceneQr(settings, scene, contracts.WECHAT_SCENE_SECONDS);
  } catch (error) {
    throw platformError(error, 'scan');
  }
  // The scene lives no longer than its code, nor longer than asked.
  const seconds = Math.min(qr.expireSeconds, contracts.WECHAT_SCENE_SECONDS);
  await db
    .insertInto('platform.sign_in_flows')
    .values({
      state: scene,
      engine_code: engineCode,
      provider: kind,
      nonce: options.keyHash ?? randomBytes(24).toString('base64url'),
      code_verifier: '',
      return_to: options.returnTo ?? null,
      payload: JSON.stringify({ qrUrl: qr.qrUrl, ...(options.userId ? { userId: options.userId } : {}) } satisfies ScenePayload),
      expires_at: new Date(now.getTime() + seconds * 1000),
    })
    .execute();
  return scene;
}

/** Starts a sign-in scan: this site's QR page of a new scene, and the key only the asking browser gets. */
export async function startAccountScan(db: Db, http: typeof fetch, engineCode: string, redirectUrl: string | undefined, siteUrl: string, now = new Date()): Promise<contracts.SsoStartResult> {
  const settings = await usableSettings(db, http, engineCode, 'wechat');
  const returnTo = allowedReturnTo(redirectUrl, `${siteUrl}${WECHAT_SCAN_PAGE}`);
  const browserKey = randomBytes(24).toString('base64url');
  const scene = await createScene(db, settings, engineCode, SCENE_KINDS.signIn, { keyHash: browserKeyHash(browserKey), returnTo }, now);
  const page = new URLSearchParams({ scene, engineCode });
  return { redirectUrl: `${WECHAT_SCAN_PAGE}?${page}`, browserKey };
}

/**
 * A push of the engine's official account: the URL check is answered with its echo; a scan marks its scene scanned
 * (once; a scene of another engine, used or out of time is left alone); everything else is acknowledged. A push
 * whose signature or sealed text does not hold changes nothing (200904).
 */
export async function receiveAccountPush(db: Db, engineCode: string, push: CallbackPush, now = new Date()): Promise<string> {
  if (!(await findEngine(db, engineCode))) throw new AppError('EngineNotExist');
  const row = await loadProvider(engineDb(db, engineCode), 'wechat');
  const token = row?.secrets.callbackToken;
  if (!row?.enabled || row.settings.wechatMethod !== 'officialAccount' || !token) throw new AppError('IntegrationNotConfigured');
  const opened = openAccountPush(String(row.settings.appKey ?? ''), { token, aesKey: row.secrets.callbackAesKey }, push);
  if (!opened) throw new AppError('ChatCallbackRejected');
  if (opened.kind === 'verify') return opened.echo;
  if (opened.kind === 'scan') {
    const marked = await db
      .updateTable('platform.sign_in_flows')
      .set({ payload: sql`coalesce(payload, '{}'::jsonb) || jsonb_build_object('openid', ${opened.openid}::text)` })
      .where('state', '=', opened.scene)
      .where('provider', 'in', Object.values(SCENE_KINDS))
      .where('engine_code', '=', engineCode)
      .where('used_time', 'is', null)
      .where('expires_at', '>', now)
      .where(sql<boolean>`payload->>'openid' is null`)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) > 0) wakeScene(db, opened.scene);
  }
  // WeChat sends a push again unless it gets this word (or an empty answer) within five seconds.
  return 'success';
}

function assertSameBrowser(keyHash: string, key: string): void {
  if (!sameBrowserKey(keyHash, key)) throw new AppError(SCENE_ERRORS.invalid, { detail: { reason: 'another browser started this scan' } });
}

/**
 * Polls waiting on a scene of this process, by database (an app's own): the push that marks a scene wakes them at
 * once. A push that reaches another server process is seen by the next read of the row, within a second.
 */
const sceneWaiters = new WeakMap<Db, Map<string, Set<() => void>>>();

export function wakeScene(db: Db, scene: string): void {
  for (const wake of sceneWaiters.get(db)?.get(scene) ?? []) wake();
}

/** Waits `ms`, or less when a push marks the scene in this process. */
export function pause(db: Db, scene: string, ms: number): Promise<void> {
  let waiters = sceneWaiters.get(db);
  if (!waiters) sceneWaiters.set(db, (waiters = new Map()));
  const forScene = waiters.get(scene) ?? new Set<() => void>();
  waiters.set(scene, forScene);
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      forScene.delete(done);
      if (!forScene.size) waiters.delete(scene);
      resolve();
    };
    const timer = setTimeout(done, ms);
    forScene.add(done);
  });
}

type SceneFlow = Awaited<ReturnType<typeof peekSignInFlow>>;

/**
 * Waits up to `wait` seconds for the scene's scan: the openid once the push has marked it, else the code to keep
 * showing. `check` refuses a caller the scene is not for. The push may reach another server process, so the row is
 * read again each second; a push this process receives wakes the wait at once.
 */
export async function awaitScan(db: Db, scene: string, kind: SceneKind, wait: number, check: (flow: SceneFlow) => void): Promise<{ openid: string; flow: SceneFlow } | { waiting: { qrUrl: string; expiresAt: string } }> {
  const deadline = Date.now() + wait * 1000;
  for (;;) {
    const flow = await peekSignInFlow(db, scene, kind, SCENE_ERRORS);
    check(flow);
    const payload = flow.payload as unknown as ScenePayload;
    if (payload.openid) return { openid: payload.openid, flow };
    const left = deadline - Date.now();
    if (left <= 0) return { waiting: { qrUrl: payload.qrUrl, expiresAt: flow.expires_at.toISOString() } };
    await pause(db, scene, Math.min(1000, left));
  }
}

/** Who scanned, as the binding knows a WeChat: the unionid when WeChat gives one, else the openid. */
export async function scannedPerson(settings: Parameters<typeof followerIdentity>[0], openid: string) {
  try {
    return await followerIdentity(settings, openid);
  } catch (error) {
    throw platformError(error, 'scan');
  }
}

/** Marks the scene used; the statement decides, so two asks of one scene cannot both act on it. */
export const claimScene = (db: Db, scene: string, kind: SceneKind, engineCode: string) => claimSignInFlow(db, scene, kind, SCENE_ERRORS, new Date(), engineCode);

/**
 * The scene's state for the browser that started it: waiting (with the QR image) until the push says it was scanned,
 * for up to `wait` seconds; once scanned, the session of the WeChat's user (the scene is then used up).
 */
export async function accountScanState(deps: ChatDeps, query: contracts.WechatSceneQuery): Promise<contracts.WechatSceneState> {
  const scanned = await awaitScan(deps.db, query.scene, SCENE_KINDS.signIn, query.wait, (flow) => assertSameBrowser(flow.nonce, query.key));
  if ('waiting' in scanned) return { status: 'waiting', ...scanned.waiting };
  return { status: 'signedIn', login: await signInScanned(deps, scanned.flow.state, scanned.flow.engine_code, scanned.openid) };
}

async function signInScanned(deps: ChatDeps, scene: string, engineCode: string, openid: string): Promise<contracts.SsoLoginResult> {
  const person = await scannedPerson(await usableSettings(deps.db, deps.http, engineCode, 'wechat'), openid);
  const flow = await claimScene(deps.db, scene, SCENE_KINDS.signIn, engineCode);
  const session = await signInPlatformPerson(deps, engineCode, { provider: 'wechat', subject: person.subject, name: person.name });
  return { ...session, returnTo: flow.return_to };
}
