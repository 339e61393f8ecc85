import { z } from 'zod';
import { contracts } from '@tritium/shared';
import { UserAuthType } from '@tritium/shared/constants/org';
import { AppError } from '../../lib/app-error.ts';
import { definePluginMethods, type PluginMethodContext } from '../plugin-instances/plugin-methods.ts';
import { callConnector } from './connector-calls.ts';

// The connector plugin's and the engine's own plugins' method `call` for POST /v2/plugin/invoke (docs/decisions/0123).
// Both run a connector through the one client; the call log reads source `button` (a form's plugin control or an API
// caller pressing it), since connector_calls keeps the sources it was created with.

const Values = z.record(z.string(), z.unknown());
const ConnectorCall = z.object({ connectorCode: z.string().min(1).max(64), values: Values.default(() => ({})) });
const CustomCall = z.object({ values: Values.default(() => ({})) });

function parse<T>(schema: z.ZodType<T>, ctx: PluginMethodContext, params: Record<string, unknown>): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const param = String(parsed.error.issues[0]?.path[0] ?? 'params');
  throw new AppError('PluginParamsInvalid', { detail: { name: ctx.plugin.name, param } });
}

definePluginMethods('connector', {
  /**
   * Any connector by code with any values: as much as the console's 试运行, so Administrators only (members reach
   * connectors through the forms they may open: the advanced button, a custom plugin's control).
   */
  call: async (ctx, params) => {
    const caller = await ctx.edb.selectFrom('org_users').select('auth_type').where('id', '=', ctx.user.userId).executeTakeFirst();
    if (caller?.auth_type !== UserAuthType.Administrator) throw new AppError('Forbidden');
    const { connectorCode, values } = parse(ConnectorCall, ctx, params);
    const answer = await callConnector(ctx.edb, ctx.engineCode, connectorCode, values, { http: ctx.http }, 'button');
    return { outputs: answer.outputs };
  },
});

definePluginMethods(contracts.CUSTOM_PLUGIN_TEMPLATE, {
  /** Runs the plugin's connector with the form's values; answers only the outputs it shows (all when none chosen). */
  call: async (ctx, params) => {
    const { values } = parse(CustomCall, ctx, params);
    const row = await ctx.edb.selectFrom('plugin_instances').select('definition').where('code', '=', ctx.plugin.code).executeTakeFirstOrThrow();
    const definition = contracts.CustomPluginDefinition.safeParse({ connectorCode: row.definition.connectorCode, buttonText: row.definition.buttonText, outputs: row.definition.outputs });
    if (!definition.success) throw new AppError('ConnectorNotChosen', { detail: { name: ctx.plugin.name } });
    const answer = await callConnector(ctx.edb, ctx.engineCode, definition.data.connectorCode, values, { http: ctx.http }, 'button');
    const shown = definition.data.outputs.length ? definition.data.outputs : Object.keys(answer.outputs);
    return { outputs: Object.fromEntries(shown.map((name) => [name, answer.outputs[name] ?? null])) };
  },
});
