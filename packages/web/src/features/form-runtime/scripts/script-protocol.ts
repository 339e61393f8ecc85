/**
 * The messages between an open form and its browser script's sandbox (docs/decisions/0118, "Browser script"). The
 * sandbox is a frame of an opaque origin; everything it sends is untrusted and checked here before the form acts on it.
 */

/** The form events a browser script may export, and `buttons[actionName]` as `button`. */
export const SCRIPT_HANDLERS = ['onLoad', 'afterLoad', 'onChange', 'validate', 'beforeSubmit', 'afterSubmit', 'button'] as const;
export type ScriptHandler = (typeof SCRIPT_HANDLERS)[number];

export const MESSAGE_TYPES = ['info', 'success', 'warning', 'error'] as const;
export type ScriptMessageType = (typeof MESSAGE_TYPES)[number];

/** What a script asks the form to do, applied in order. */
export type ScriptOperation =
  | { op: 'set'; code: string; value: JsonValue }
  | { op: 'show' | 'hide' | 'lock' | 'unlock'; code: string }
  | { op: 'message'; text: string; type: ScriptMessageType };

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The form → sandbox messages. */
export type ToRunner =
  | { type: 'load'; js: string }
  | { type: 'event'; eventId: number; handler: ScriptHandler; args: JsonValue[]; values: Record<string, JsonValue> }
  | { type: 'callResult'; callId: number; ok: true; answer: ServerAnswer }
  | { type: 'callResult'; callId: number; ok: false; message: string };

/** The sandbox → form messages, once checked. */
export type FromRunner =
  | { type: 'hello' }
  | { type: 'ready'; handlers: ScriptHandler[]; buttons: string[] }
  | { type: 'loadError'; message: string }
  | { type: 'call'; eventId: number; callId: number; actionName: string; params: JsonValue; ops: unknown[] }
  | { type: 'done'; eventId: number; ops: unknown[]; result: JsonValue; error?: { message: string; fromServer: boolean } };

/** The answer of `/v1/codeeditor/action`: fields the server changed, data for the script, a message to show. */
export interface ServerAnswer {
  values?: Record<string, JsonValue>;
  data?: JsonValue;
  message?: string;
}

// Bounds on what one answer of a script may carry: a form, not a bulk channel.
export const LIMITS = { ops: 500, text: 500, name: 100, depth: 20, jsonChars: 1_000_000 } as const;

/** A plain JSON value (no functions, dates, maps, cycles or non-finite numbers), within the depth bound. */
export function isJsonValue(value: unknown, depth = 0): value is JsonValue {
  if (depth > LIMITS.depth) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.entries(value).every(([key, item]) => key !== '__proto__' && isJsonValue(item, depth + 1));
}

const isText = (value: unknown, max: number = LIMITS.text): value is string => typeof value === 'string' && value.length <= max;
const isId = (value: unknown): value is number => Number.isSafeInteger(value);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const sizeOk = (value: unknown) => {
  try {
    return JSON.stringify(value).length <= LIMITS.jsonChars;
  } catch {
    return false;
  }
};

/** A message of the sandbox in one of the shapes above, or null (ignored). */
export function parseRunnerMessage(data: unknown): FromRunner | null {
  if (!isRecord(data) || typeof data.type !== 'string') return null;
  switch (data.type) {
    case 'hello':
      return { type: 'hello' };
    case 'ready': {
      const handlers = Array.isArray(data.handlers) ? data.handlers.filter((name): name is ScriptHandler => (SCRIPT_HANDLERS as readonly unknown[]).includes(name)) : [];
      const buttons = Array.isArray(data.buttons) ? data.buttons.filter((name): name is string => isText(name, LIMITS.name)).slice(0, LIMITS.ops) : [];
      return { type: 'ready', handlers, buttons };
    }
    case 'loadError':
      return { type: 'loadError', message: isText(data.message) ? data.message : '' };
    case 'call':
      if (!isId(data.eventId) || !isId(data.callId) || !isText(data.actionName, LIMITS.name) || !data.actionName) return null;
      if (!isJsonValue(data.params ?? null) || !sizeOk(data.params ?? null)) return null;
      return { type: 'call', eventId: data.eventId, callId: data.callId, actionName: data.actionName, params: (data.params ?? null) as JsonValue, ops: Array.isArray(data.ops) ? data.ops : [] };
    case 'done': {
      if (!isId(data.eventId)) return null;
      const result = isJsonValue(data.result ?? null) ? ((data.result ?? null) as JsonValue) : null;
      const error = isRecord(data.error) ? { message: isText(data.error.message) ? data.error.message : '', fromServer: data.error.fromServer === true } : undefined;
      return { type: 'done', eventId: data.eventId, ops: Array.isArray(data.ops) ? data.ops : [], result, ...(error ? { error } : {}) };
    }
    default:
      return null;
  }
}

export interface OperationRules {
  /** Fields a script may set (the form's own input fields of the main table). */
  settable: ReadonlySet<string>;
  /** Controls a script may show, hide, lock and unlock (fields and sub-tables). */
  known: ReadonlySet<string>;
}

/** The operations that pass the rules, in order, and how many were refused. */
export function checkOperations(ops: readonly unknown[], rules: OperationRules): { valid: ScriptOperation[]; refused: number } {
  const valid: ScriptOperation[] = [];
  let refused = Math.max(ops.length - LIMITS.ops, 0);
  for (const raw of ops.slice(0, LIMITS.ops)) {
    const op = checkOperation(raw, rules);
    if (op) valid.push(op);
    else refused += 1;
  }
  return { valid, refused };
}

function checkOperation(raw: unknown, rules: OperationRules): ScriptOperation | null {
  if (!isRecord(raw) || typeof raw.op !== 'string') return null;
  switch (raw.op) {
    case 'set':
      return typeof raw.code === 'string' && rules.settable.has(raw.code) && isJsonValue(raw.value ?? null) && sizeOk(raw.value ?? null) ? { op: 'set', code: raw.code, value: (raw.value ?? null) as JsonValue } : null;
    case 'show':
    case 'hide':
    case 'lock':
    case 'unlock':
      return typeof raw.code === 'string' && rules.known.has(raw.code) ? { op: raw.op, code: raw.code } : null;
    case 'message': {
      const type = (MESSAGE_TYPES as readonly unknown[]).includes(raw.type) ? (raw.type as ScriptMessageType) : 'info';
      return typeof raw.text === 'string' && raw.text ? { op: 'message', text: raw.text.slice(0, LIMITS.text), type } : null;
    }
    default:
      return null;
  }
}

/** Checks a server answer's shape before it reaches the form or the script. */
export function parseServerAnswer(data: unknown): ServerAnswer {
  if (!isRecord(data)) return {};
  const answer: ServerAnswer = {};
  if (isRecord(data.values) && isJsonValue(data.values)) answer.values = data.values as Record<string, JsonValue>;
  if (data.data !== undefined && isJsonValue(data.data)) answer.data = data.data;
  if (typeof data.message === 'string' && data.message) answer.message = data.message;
  return answer;
}
