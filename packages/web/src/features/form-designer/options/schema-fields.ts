/**
 * Reads a control type's options schema (zod 4) into the fields the property panel draws: one walk over
 * `schema.def`, unwrapping defaults, optionals, nullables and pipes. The registry stays the only place that
 * says what a control's attributes are (conventions.md rule 4).
 */
import type { z } from 'zod';

/** The parts of a zod 4 definition this walk reads. */
interface LooseDef {
  type: string;
  innerType?: ZodLike;
  in?: ZodLike;
  out?: ZodLike;
  shape?: Record<string, ZodLike>;
  element?: ZodLike;
  options?: ZodLike[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  discriminator?: string;
  checks?: { _zod: { def: { check?: string; maximum?: number } } }[];
  getter?: () => ZodLike;
  keyType?: ZodLike;
  valueType?: ZodLike;
}
interface ZodLike {
  def: LooseDef;
  safeParse(value: unknown): { success: boolean; data?: unknown };
  minValue?: number | null;
  maxValue?: number | null;
  maxLength?: number | null;
  isInt?: boolean;
}

export type FieldType =
  | { kind: 'string'; maxLength?: number }
  | { kind: 'number'; min?: number; max?: number; integer: boolean }
  | { kind: 'boolean' }
  | { kind: 'choice'; values: (string | number)[] }
  | { kind: 'object'; fields: OptionField[] }
  | { kind: 'list'; item: FieldType; itemSchema: ZodLike; maxItems?: number }
  | { kind: 'record'; key: FieldType; value: FieldType; valueSchema: ZodLike }
  | { kind: 'variant'; discriminator: string; variants: { value: string; schema: ZodLike; fields: OptionField[] }[] }
  | { kind: 'unsupported' };

export interface OptionField {
  key: string;
  type: FieldType;
  /** null is a value of its own (an unset reference, a switched-off rule). */
  nullable: boolean;
  /** May be left out (the schema then fills in a default or derives one). */
  optional: boolean;
  schema: ZodLike;
}

// Nested far enough for every registry option; recursive schemas (z.json) stop here.
const MAX_DEPTH = 6;

const asLike = (schema: unknown) => schema as ZodLike;

/** The schema a value is checked against before any transform: a `.transform()` pipe is read by its input. */
function unwrapPipe(schema: ZodLike): ZodLike {
  const { in: input, out } = schema.def;
  if (!input || !out) return schema;
  // preprocess: transform → schema; transform: schema → transform.
  return input.def.type === 'transform' ? out : input;
}

/** The schema of the values a designer writes: defaults, optionals and pipes peeled off. */
export function unwrapSchema(schema: unknown): { inner: ZodLike; nullable: boolean; optional: boolean } {
  let inner = asLike(schema);
  let nullable = false;
  let optional = false;
  for (let i = 0; i < 20; i += 1) {
    const def = inner.def;
    if (def.type === 'optional') optional = true;
    if (def.type === 'nullable') nullable = true;
    if (['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional'].includes(def.type) && def.innerType) inner = def.innerType;
    else if (def.type === 'pipe') inner = unwrapPipe(inner);
    else if (def.type === 'lazy' && def.getter) inner = def.getter();
    else break;
  }
  return { inner, nullable, optional };
}

const maxLengthCheck = (def: LooseDef) => def.checks?.find((check) => check._zod.def.check === 'max_length')?._zod.def.maximum;
const finite = (value: number | null | undefined) => (typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined);

function fieldsOf(shape: Record<string, ZodLike>, depth: number, skip?: string): OptionField[] {
  return Object.entries(shape)
    .filter(([key]) => key !== skip)
    .map(([key, schema]) => {
      const { nullable, optional } = unwrapSchema(schema);
      return { key, nullable, optional, schema, type: describeType(schema, depth + 1) };
    });
}

/** What kind of field edits values of this schema. */
export function describeType(schema: unknown, depth = 0): FieldType {
  if (depth > MAX_DEPTH) return { kind: 'unsupported' };
  const { inner } = unwrapSchema(schema);
  const def = inner.def;
  switch (def.type) {
    case 'string':
      return { kind: 'string', maxLength: finite(inner.maxLength) };
    case 'number':
      return { kind: 'number', min: finite(inner.minValue), max: finite(inner.maxValue), integer: !!inner.isInt };
    case 'boolean':
      return { kind: 'boolean' };
    case 'enum':
      return { kind: 'choice', values: Object.values(def.entries ?? {}) };
    case 'literal':
      return { kind: 'choice', values: (def.values ?? []).filter((v): v is string | number => typeof v === 'string' || typeof v === 'number') };
    case 'object':
      return { kind: 'object', fields: fieldsOf(def.shape ?? {}, depth) };
    case 'array':
      return def.element
        ? { kind: 'list', item: describeType(def.element, depth + 1), itemSchema: def.element, maxItems: maxLengthCheck(def) }
        : { kind: 'unsupported' };
    case 'record':
      return def.keyType && def.valueType
        ? { kind: 'record', key: describeType(def.keyType, depth + 1), value: describeType(def.valueType, depth + 1), valueSchema: def.valueType }
        : { kind: 'unsupported' };
    case 'union':
      return describeUnion(def, depth);
    default:
      return { kind: 'unsupported' };
  }
}

function describeUnion(def: LooseDef, depth: number): FieldType {
  const options = (def.options ?? []).map((option) => ({ schema: option, type: describeType(option, depth + 1) }));
  if (def.discriminator) {
    const key = def.discriminator;
    const variants = options.flatMap(({ schema }) => {
      const shape = unwrapSchema(schema).inner.def.shape ?? {};
      const tag = shape[key] ? describeType(shape[key], depth + 1) : undefined;
      const value = tag?.kind === 'choice' ? tag.values[0] : undefined;
      return typeof value === 'string' ? [{ value, schema, fields: fieldsOf(shape, depth + 1, key) }] : [];
    });
    return { kind: 'variant', discriminator: key, variants };
  }
  if (options.every((option) => option.type.kind === 'choice')) {
    return { kind: 'choice', values: options.flatMap((option) => (option.type.kind === 'choice' ? option.type.values : [])) };
  }
  // A literal or a free value (e.g. 'now' or a date): typed as text, checked by the schema.
  const text = options.find((option) => option.type.kind === 'string');
  return text ? text.type : { kind: 'unsupported' };
}

/** A value to start from when a field is switched on or an item is added: defaults first, then empties. */
export function blankValue(schema: unknown, depth = 0): unknown {
  const like = asLike(schema);
  const def = like.def;
  if (depth > MAX_DEPTH) return null;
  switch (def.type) {
    case 'default':
    case 'prefault':
      return like.safeParse(undefined).data;
    case 'optional':
      return undefined;
    case 'nullable':
      return null;
    case 'pipe':
      return blankValue(unwrapPipe(like), depth + 1);
    case 'lazy':
      return def.getter ? blankValue(def.getter(), depth + 1) : null;
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape ?? {})
          .map(([key, value]) => [key, blankValue(value, depth + 1)] as const)
          .filter(([, value]) => value !== undefined),
      );
    case 'string':
      return '';
    case 'number':
      return finite(like.minValue) ?? 0;
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'array':
      return [];
    case 'record':
      return {};
    case 'union':
      return def.options?.[0] ? blankValue(def.options[0], depth + 1) : null;
    default:
      return null;
  }
}

/**
 * A new control's options as the designer drops it: the type's defaults, read before any transform so a
 * derived value (a number's decimals follow its show mode) stays derived.
 */
export function newOptions(schema: z.ZodType): Record<string, unknown> {
  const input = unwrapPipe(asLike(schema));
  const parsed = input.safeParse({});
  return (parsed.success ? parsed.data : schema.parse({})) as Record<string, unknown>;
}

export type OptionPath = (string | number)[];

export const pathKey = (path: OptionPath) => path.join('.');

/** Problems of a value by the path they are about ('' for the value as a whole). */
export function issuesByPath(schema: z.ZodType, value: unknown, error?: z.core.$ZodErrorMap): Map<string, string[]> {
  const result = schema.safeParse(value, error ? { error } : undefined);
  const map = new Map<string, string[]>();
  if (result.success) return map;
  for (const issue of result.error.issues) {
    const key = pathKey(issue.path.filter((part): part is string | number => typeof part !== 'symbol'));
    map.set(key, [...(map.get(key) ?? []), issue.message]);
  }
  return map;
}

/** A copy of `value` with the value at `path` replaced; undefined removes an object key. */
export function setAtPath(value: unknown, path: OptionPath, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(value) ? [...value] : [];
    list[head] = setAtPath(list[head], rest, next);
    return list;
  }
  const object = { ...((value && typeof value === 'object' ? value : {}) as Record<string, unknown>) };
  const inner = setAtPath(object[head], rest, next);
  if (inner === undefined) delete object[head];
  else object[head] = inner;
  return object;
}
