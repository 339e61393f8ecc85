import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { canReadRecord } from '../business-data/record-policy.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { flattenControls } from '../form-design/form-model.ts';
import { callConnector } from './connector-calls.ts';
import type { OutsideDeps } from './connector-client.ts';

// The advanced button pressed in a form (docs/decisions/0120): for anyone who may open the form (and read the record
// named), the control's connector runs with the form's values, and the outputs its result mapping names come back as
// the values to set: a field's value, or a sub-table's rows (each item's fields by the sub-table's control codes).

interface ButtonOptions {
  displayName?: string;
  connectorCode?: string | null;
  resultMapping?: Record<string, string>;
}

/** A field's value from an output: lists and objects become their JSON text, except for a sub-table. */
function fieldValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}

export async function pressAdvancedButton(edb: EngineExecutor, ctx: NodeContext, body: contracts.ButtonCallBody, deps: OutsideDeps): Promise<contracts.ButtonCallResult> {
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  if (body.objectId) {
    const row = await findRecord(edb, form, body.objectId);
    if (!row || !(await canReadRecord(edb, form, row, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
  }
  const place = flattenControls(form.definition.controls).find((p) => p.control.code === body.controlCode && p.type.key === 'advancedButton');
  if (!place) throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'controlCode', message: '表单中没有这个高级按钮' }] } });
  const options = (place.control.options ?? {}) as ButtonOptions;
  if (!options.connectorCode) throw new AppError('ConnectorNotChosen', { detail: { name: options.displayName || body.controlCode } });
  const values = { ...body.values, ObjectId: body.objectId ?? '' };
  const result = await callConnector(edb, ctx.engineCode, options.connectorCode, values, deps, 'button');
  const grids = new Map(form.grids.map((g) => [g.code, new Set(g.fields.map((f) => f.code))]));
  const fields = new Set(form.fields.map((f) => f.code));
  const answer: Record<string, unknown> = {};
  for (const [controlCode, outputName] of Object.entries(options.resultMapping ?? {})) {
    if (!(outputName in result.outputs)) continue;
    const value = result.outputs[outputName];
    const childCodes = grids.get(controlCode);
    if (childCodes) {
      const items = Array.isArray(value) ? value : [];
      answer[controlCode] = items.map((item) =>
        Object.fromEntries(Object.entries(item !== null && typeof item === 'object' ? item : {}).filter(([code]) => childCodes.has(code)).map(([code, v]) => [code, fieldValue(v)])),
      );
    } else if (fields.has(controlCode)) {
      answer[controlCode] = fieldValue(value);
    }
  }
  return { values: answer, durationMs: result.durationMs };
}
