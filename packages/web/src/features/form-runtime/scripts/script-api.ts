import { apiClient } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import type { JsonValue } from './script-protocol.ts';

// The form runtime's calls for custom code (docs/decisions/0118): the form's compiled browser script, its server actions.

/** A form's browser script as the browser runs it: compiled JavaScript and the version it was saved as. */
export interface BrowserScript {
  js: string;
  version: number;
}

export interface ActionBody {
  schemaCode: string;
  objectId?: string;
  actionName: string;
  /** The form's values as a save would send them. */
  values: Record<string, unknown>;
  params: JsonValue;
}

export const scriptKeys = {
  runtime: (schemaCode: string) => ['form-runtime', 'browser-script', schemaCode] as const,
};

export const scriptApi = {
  /** The form's browser script (contracts.CodeRuntimeResult), or null when it has none (a 404: none either). */
  runtime: async (schemaCode: string): Promise<BrowserScript | null> => {
    try {
      const answer = await apiClient.post<{ script: BrowserScript | null } | null>('/v1/codeeditor/runtime', { schemaCode }, { disableBizError: true, disableSysError: true });
      const script = answer?.script;
      return script && typeof script.js === 'string' && script.js.trim() ? { js: script.js, version: script.version } : null;
    } catch (error) {
      if (isApiError(error) && error.status === 404) return null;
      throw error;
    }
  },
  /** A server action of the form's script; its refusals (410001) and errors are shown as every other API error. */
  action: (body: ActionBody) => apiClient.post<unknown>('/v1/codeeditor/action', body),
};
