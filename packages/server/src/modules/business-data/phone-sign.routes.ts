import { contracts, successEnvelopeOf } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import type { FileStore } from '../files/file-store.ts';
import { RATE_LIMITS, type TypedApp } from '../../lib/route-types.ts';
import { ok } from '../../lib/reply.ts';
import { nodeContextOf } from '../function-node/node-context.ts';
import { createSignLink, signLinkInfo, signLinkState, submitSignature } from './phone-sign.service.ts';

const tags = ['业务数据'];
const env = <T extends Parameters<typeof successEnvelopeOf>[0]>(data: T) => ({ 200: successEnvelopeOf(data) });
// The phone holds only the link's token (docs/decisions/0114): info and submit are public, rate-limited as sign-in.
const phone = { access: 'public', rateLimit: RATE_LIMITS.signIn } as const;

/** Signing a hand-sign field on a phone (calls.md §7 "hand sign under /v1/form/sign/* and /v1/handsign/qrlink"). */
export function phoneSignRoutes(app: TypedApp, deps: { db: Db; fileStore: FileStore }): void {
  app.post('/v1/handsign/qrlink', {
    config: { access: 'engine' },
    schema: { tags, summary: '生成手机签名链接（一次性，10 分钟内有效）', body: contracts.CreateSignLinkBody, response: env(contracts.CreatedSignLink) },
    handler: async (request) => ok(await createSignLink(nodeContextOf(request, deps.db), request.body)),
  });
  app.get('/v1/form/sign/state', {
    config: { access: 'engine' },
    schema: { tags, summary: '手机签名链接的状态（发起人查看）', querystring: contracts.SignLinkQuery, response: env(contracts.SignLinkStateResult) },
    handler: async (request) => ok(await signLinkState(nodeContextOf(request, deps.db), request.query.token)),
  });
  app.get('/v1/form/sign/info', {
    config: phone,
    schema: { tags, summary: '手机签名链接信息（表单、字段、数据标题）', querystring: contracts.SignLinkQuery, response: env(contracts.SignLinkInfo) },
    handler: async (request) => ok(await signLinkInfo(deps.db, request.query.token)),
  });
  app.post('/v1/form/sign/submit', {
    config: phone,
    schema: { tags, summary: '手机提交签名（PNG）', body: contracts.SubmitSignatureBody, response: env(contracts.SubmittedSignature) },
    handler: async (request) => ok(await submitSignature(deps.db, deps.fileStore, request.body)),
  });
}
