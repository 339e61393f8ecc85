import { ChannelError, type ChannelAdapter, type OutgoingMessage } from './channel.ts';
import type { RobotChannelSettings, RobotSettings } from './channel-settings.ts';
import { jsonOf, postJson } from './http-post.ts';
import { robotRequest } from './robot-formats.ts';

// Platform answers that mean "too many messages now": worth another try later (DingTalk 130101, WeCom 45009,
// Feishu 9499 and 11232). Any other non-zero code (bad signature, keyword missing, robot removed) fails again.
const RATE_LIMIT_CODES = new Set([130101, 45009, 9499, 11232]);

/** Sends to one robot; the platform's 200 answer with a non-zero errcode (Feishu: code) is a failure. */
export async function sendToRobot(http: typeof fetch, robot: RobotSettings, message: OutgoingMessage): Promise<string> {
  const request = robotRequest(robot, message);
  const answer = await postJson(http, request.url, request.body).catch((error: unknown) => {
    throw error instanceof ChannelError ? new ChannelError(`${robot.name}: ${error.message}`, error.retryable) : error;
  });
  const json = jsonOf(answer.text);
  const code = json ? (json.errcode ?? json.code ?? json.StatusCode) : undefined;
  const text = json ? String(json.errmsg ?? json.msg ?? json.StatusMessage ?? '') : answer.text.slice(0, 200);
  if (code !== undefined && Number(code) !== 0) {
    throw new ChannelError(`${robot.name}: ${code} ${text}`.trim(), RATE_LIMIT_CODES.has(Number(code)));
  }
  return `${robot.name}: ${text || 'ok'}`;
}

/**
 * Posts to every enabled robot. Fails when any robot fails (retryable when one of the failures is), after trying
 * all of them, so one broken robot does not keep the others from their message.
 */
export const robotAdapter = (http: typeof fetch): ChannelAdapter => ({
  kind: 'robot',
  async send(settings, message) {
    const { robots } = settings as RobotChannelSettings;
    if (!robots.length) throw new ChannelError('no robot is enabled', false);
    const results = await Promise.allSettled(robots.map((robot) => sendToRobot(http, robot, message)));
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (!failures.length) return results.map((r) => (r as PromiseFulfilledResult<string>).value).join('; ');
    const errors = failures.map((f) => (f instanceof ChannelError ? f : new ChannelError(String(f), true)));
    throw new ChannelError(errors.map((e) => e.message).join('; '), errors.some((e) => e.retryable));
  },
});
