import type { contracts } from '@tritium/shared';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { platformError, usableSettings } from './chat-sign-in.ts';
import { claimSignInFlow, createSignInFlow } from './sign-in-flows.ts';
import { chatProvider } from './providers/registry.ts';
import { awaitScan, claimScene, createScene, scannedPerson, SCENE_KINDS } from './wechat-account-scan.ts';

// A signed-in user binds their personal WeChat to their account (/entry/register/wechat, docs/decisions/0090): the
// same website QR login as WeChat sign-in (0078), with a one-use state that carries the user; WeChat sends the browser
// back to /entry/register/wechat with a code, which the page hands over here with the user's own session. One WeChat
// per user and one user per WeChat in an organisation; unbinding removes the binding only.

const FLOW = 'wechat-bind';
const MINUTES = 5;
export const WECHAT_BIND_PAGE = '/entry/register/wechat';
const STATE_ERRORS = { invalid: 'ChatScanStateInvalid', expired: 'ChatScanStateExpired' } as const;

export async function wechatBinding(ctx: NodeContext): Promise<contracts.WechatBinding> {
  const row = await engineDb(ctx.db, ctx.engineCode).selectFrom('org_user_identities').select('created_time').where('provider', '=', 'wechat').where('user_id', '=', ctx.userId).executeTakeFirst();
  return { bound: !!row, boundTime: row ? row.created_time.toISOString() : null };
}

/**
 * The WeChat QR page for this user; the state names the user and the organisation. An engine that signs in by its
 * official account binds by the account's code too: this page again, with a scene of this user (decision 0097).
 */
export async function startWechatBinding(ctx: NodeContext, http: typeof fetch, siteUrl: string): Promise<{ redirectUrl: string }> {
  const settings = await usableSettings(ctx.db, http, ctx.engineCode, 'wechat');
  if (settings.wechatMethod === 'officialAccount') {
    const scene = await createScene(ctx.db, settings, ctx.engineCode, SCENE_KINDS.bind, { userId: ctx.userId });
    return { redirectUrl: `${WECHAT_BIND_PAGE}?${new URLSearchParams({ scene })}` };
  }
  const state = await createSignInFlow(ctx.db, { engineCode: ctx.engineCode, provider: FLOW, returnTo: null, minutes: MINUTES, payload: { userId: ctx.userId } });
  return { redirectUrl: chatProvider('wechat').scanUrl(settings, { state, redirectUri: `${siteUrl}${WECHAT_BIND_PAGE}` }) };
}

/**
 * Binds the WeChat of the scan to the user who started it (the state is used once and must be this user's): 206001
 * when the user has another WeChat already, 206002 when this WeChat is another user's. Binding the same one again
 * changes nothing.
 */
export async function completeWechatBinding(ctx: NodeContext, http: typeof fetch, siteUrl: string, body: contracts.WechatBindBody): Promise<contracts.WechatBinding> {
  const flow = await claimSignInFlow(ctx.db, body.state, FLOW, STATE_ERRORS);
  if (flow.engine_code !== ctx.engineCode || (flow.payload as { userId?: string } | null)?.userId !== ctx.userId) throw new AppError(STATE_ERRORS.invalid);
  const settings = await usableSettings(ctx.db, http, ctx.engineCode, 'wechat');
  let person;
  try {
    person = await chatProvider('wechat').userByAuthCode(settings, body.code, 'scan', `${siteUrl}${WECHAT_BIND_PAGE}`);
  } catch (error) {
    throw platformError(error, 'scan');
  }
  await bindWechat(ctx, person.id);
  return wechatBinding(ctx);
}

/**
 * The binding scene's state for the user who started it: waiting (with the code) until the account's push says it
 * was scanned; then that WeChat is bound to the user, by the same rules as the website login's binding.
 */
export async function wechatBindingScene(ctx: NodeContext, http: typeof fetch, query: contracts.WechatBindSceneQuery): Promise<contracts.WechatBindSceneState> {
  const scanned = await awaitScan(ctx.db, query.scene, SCENE_KINDS.bind, query.wait, (flow) => {
    if (flow.engine_code !== ctx.engineCode || (flow.payload as { userId?: string } | null)?.userId !== ctx.userId) throw new AppError(STATE_ERRORS.invalid);
  });
  if ('waiting' in scanned) return { status: 'waiting', ...scanned.waiting };
  const person = await scannedPerson(await usableSettings(ctx.db, http, ctx.engineCode, 'wechat'), scanned.openid);
  await claimScene(ctx.db, query.scene, SCENE_KINDS.bind, ctx.engineCode);
  await bindWechat(ctx, person.subject);
  return { status: 'bound', binding: await wechatBinding(ctx) };
}

/** Binds a WeChat (unionid or openid) to the user: 206001 when the user has another, 206002 when it is another user's. */
async function bindWechat(ctx: NodeContext, subject: string): Promise<void> {
  const edb = engineDb(ctx.db, ctx.engineCode);
  const holder = await edb.selectFrom('org_user_identities').select('user_id').where('provider', '=', 'wechat').where('subject', '=', subject).executeTakeFirst();
  if (holder && holder.user_id !== ctx.userId) throw new AppError('WechatBoundElsewhere');
  if (!holder) {
    const own = await edb.selectFrom('org_user_identities').select('subject').where('provider', '=', 'wechat').where('user_id', '=', ctx.userId).executeTakeFirst();
    if (own) throw new AppError('OfficialAccountBindError');
    // Binds at the same moment: the primary key (provider, subject) lets one user have a WeChat, and the unique index of
    // a user's WeChat (org_user_identities_one_wechat) lets a user have one; the loser is told which rule stopped it.
    const inserted = await edb.insertInto('org_user_identities').values({ provider: 'wechat', subject, user_id: ctx.userId }).onConflict((c) => c.doNothing()).returning('user_id').executeTakeFirst();
    if (!inserted) {
      const winner = await edb.selectFrom('org_user_identities').select('user_id').where('provider', '=', 'wechat').where('subject', '=', subject).executeTakeFirst();
      if (winner?.user_id !== ctx.userId) throw new AppError(winner ? 'WechatBoundElsewhere' : 'OfficialAccountBindError');
    }
  }
}

/** Removes the user's WeChat binding: 206003 when the user has none (e.g. it was removed from another tab). */
export async function removeWechatBinding(ctx: NodeContext): Promise<contracts.WechatBinding> {
  const removed = await engineDb(ctx.db, ctx.engineCode).deleteFrom('org_user_identities').where('provider', '=', 'wechat').where('user_id', '=', ctx.userId).executeTakeFirst();
  if (!Number(removed.numDeletedRows)) throw new AppError('WechatNotBound');
  return wechatBinding(ctx);
}
