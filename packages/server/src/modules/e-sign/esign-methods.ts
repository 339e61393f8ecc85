import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { definePluginMethods, type PluginMethodContext } from '../plugin-instances/plugin-methods.ts';
import { getFlow, providerOf, revokeFlow, startFlow, type ESignDeps } from './esign-flows.service.ts';
import { ESIGN_TEMPLATES } from './esign-provider.ts';

// startFlow, flowStatus and revokeFlow for POST /v2/plugin/invoke (docs/decisions/0123): the same services as the
// e-sign control's own routes, as the caller. The file store and PDF renderer are the app's, handed over when its
// routes register (the last app built wins).

let deps: Omit<ESignDeps, 'db' | 'http' | 'publicUrl'> | undefined;

export function setESignMethodDeps(given: ESignDeps): void {
  deps = { store: given.store, pdf: given.pdf };
}

async function nodeOf(ctx: PluginMethodContext) {
  const user = await ctx.edb.selectFrom('org_users').select('auth_type').where('id', '=', ctx.user.userId).executeTakeFirst();
  return { db: ctx.db, engineCode: ctx.engineCode, userId: ctx.user.userId, authType: user?.auth_type ?? 3 };
}

function parsed<T extends import('zod').ZodType>(schema: T, params: Record<string, unknown>): import('zod').output<T> {
  const result = schema.safeParse(params);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new AppError('PluginParamsInvalid', { detail: { name: issue.path.join('.') || '-', problem: issue.message } });
  }
  return result.data;
}

const depsOf = (ctx: PluginMethodContext): ESignDeps => {
  if (!deps) throw new AppError('ServerSystemError');
  return { ...deps, db: ctx.db, http: ctx.http, publicUrl: ctx.publicUrl };
};

for (const template of ESIGN_TEMPLATES) {
  definePluginMethods(template, {
    startFlow: async (ctx, params) => startFlow(await nodeOf(ctx), depsOf(ctx), parsed(contracts.ESignStartBody, params)),
    flowStatus: async (ctx, params) => getFlow(await nodeOf(ctx), parsed(contracts.ESignFlowQuery, params)),
    // The install check (plugins.service.ts runs `verify` before an install or a settings change is kept).
    verify: async (ctx) => providerOf(ctx.plugin, ctx.http).checkCredentials(),
    revokeFlow: async (ctx, params) => revokeFlow(await nodeOf(ctx), depsOf(ctx), parsed(contracts.ESignFlowIdBody, params).flowId),
  });
}
