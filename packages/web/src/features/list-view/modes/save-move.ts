import { isApiError } from '../../../lib/api-error.ts';
import { runtimeApi } from '../../form-runtime/api/runtime-api.ts';

// A card dragged to another column, an event moved or resized: the record is saved as the form runtime saves an edit
// (/v1/form/action/execute, Save, only the changed fields), so the form's rules and permissions decide
// (docs/decisions/0047). The caller puts the card or event back when the answer is a refusal.

export type MoveOutcome = { ok: true } | { ok: false; message: string };

export function saveMove(schemaCode: string, objectId: string, values: Record<string, unknown>): Promise<MoveOutcome> {
  return outcomeOf(runtimeApi.execute({ schemaCode, actionCode: 'Save', objectId, values }));
}

/** A write's answer as an outcome: a refusal (a business error) becomes its message, with the issues it names. */
export async function outcomeOf(write: Promise<unknown>): Promise<MoveOutcome> {
  try {
    await write;
    return { ok: true };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const issues = (error.detail as { issues?: { message: string }[] } | undefined)?.issues ?? [];
    return { ok: false, message: issues.length ? `${error.errorMessage}：${issues.map((i) => i.message).join('；')}` : error.errorMessage };
  }
}
