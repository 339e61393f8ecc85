import { z } from 'zod';
import type { TypedApp } from '../../lib/route-types.ts';
import { AppError } from '../../lib/app-error.ts';
import { contracts } from '@tritium/shared';

const tags = ['第三方登录'];

/**
 * Sign-in through chat platforms, single sign-on and external links (calls.md §7 "Login and account"). Until an
 * engine configures a provider these answer 200901 (SSO: 208001) so the entry pages can say so plainly.
 */
export function integrationRoutes(app: TypedApp): void {
  const anyQuery = z.object({}).passthrough();
  const notConfigured = async () => {
    throw new AppError('IntegrationNotConfigured');
  };
  for (const url of ['/v1/login/dingtalk/corp', '/v1/login/dingtalk/app', '/v1/login/dingtalk/oa', '/v1/login/wxwork/corp', '/v1/login/wechat/scan']) {
    app.get(url, { config: { access: 'public' }, schema: { tags, summary: '第三方平台登录（未配置）', querystring: anyQuery }, handler: notConfigured });
  }
  app.post('/v1/login/feishu/corp', { config: { access: 'public' }, schema: { tags, summary: '飞书登录（未配置）' }, handler: notConfigured });
  app.get('/v1/login/sso', {
    config: { access: 'public' },
    schema: { tags, summary: '单点登录（未配置）', querystring: anyQuery },
    handler: async () => {
      throw new AppError('SsoSettingMissing');
    },
  });
  app.get('/v1/sysintergration/sso/setting', {
    config: { access: 'public' },
    schema: { tags, summary: '单点登录设置', querystring: anyQuery },
    handler: async () => ({ successful: true, data: { enabled: false } }),
  });
  app.post('/v1/external/login', {
    config: { access: 'public' },
    schema: { tags, summary: '外部链接登录（未配置）', body: contracts.ExternalLoginBody },
    handler: notConfigured,
  });
  app.get('/v1/token/exchange', { config: { access: 'public' }, schema: { tags, summary: '令牌交换（未配置）', querystring: anyQuery }, handler: notConfigured });
}
