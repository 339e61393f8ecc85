import { sql, type RawBuilder } from 'kysely';
import type { ControlSqlType } from '@tritium/shared/controls/index';

// How a column changes type when a control changes type under the same code (docs/decisions/0006 "Type changes").
// Each conversion is an ALTER … TYPE … USING expression; where some values may not convert, `lost` is the condition
// that holds for exactly those values, so they are counted before anything changes and, once the person confirms,
// end as null (or, for a shorter text, cut to the new length). Nothing fails half-way and nothing is lost unasked.

const SQL_TYPE = /^(text|varchar\(\d{1,5}\)|numeric|integer|timestamptz|boolean|jsonb|text\[\])$/;

/** The registry's column type, checked before it goes into DDL as raw text. */
export function sqlTypeOf(sqlType: string): RawBuilder<unknown> {
  if (!SQL_TYPE.test(sqlType)) throw new Error(`unexpected column type ${sqlType}`);
  return sql.raw(sqlType);
}

export interface Conversion {
  using: RawBuilder<unknown>;
  /** Holds for a stored value that would not survive; absent when every value converts. */
  lost?: RawBuilder<unknown>;
}

const varcharLength = (t: string): number | undefined => {
  const m = /^varchar\((\d+)\)$/.exec(t);
  return m ? Number(m[1]) : undefined;
};
const isText = (t: string) => t === 'text' || varcharLength(t) !== undefined;

/** A lossless text form of any column: arrays joined with ';' (select items cannot hold one), JSON strings unquoted. */
function asText(col: RawBuilder<unknown>, from: ControlSqlType): RawBuilder<unknown> {
  if (from === 'text[]') return sql`array_to_string(${col}, ';')`;
  if (from === 'jsonb') return sql`(case when jsonb_typeof(${col}) = 'string' then ${col} #>> '{}' else ${col}::text end)`;
  return sql`${col}::text`;
}

const tryCast = (target: 'numeric' | 'integer' | 'timestamptz' | 'boolean', text: RawBuilder<unknown>) => sql`${sql.id('platform', `form_try_${target}`)}(${text})`;

/** A value is there: not null, and not an empty text or empty array (those read as empty everywhere). */
export function hasValue(col: RawBuilder<unknown>, type: ControlSqlType): RawBuilder<unknown> {
  if (isText(type)) return sql`(${col} is not null and ${col} <> '')`;
  if (type === 'text[]') return sql`(${col} is not null and cardinality(${col}) > 0)`;
  return sql`${col} is not null`;
}

export function conversionOf(col: RawBuilder<unknown>, from: ControlSqlType, to: ControlSqlType): Conversion {
  const text = asText(col, from);
  const toLength = varcharLength(to);
  if (to === 'text') return { using: text };
  if (toLength !== undefined) {
    const fromLength = varcharLength(from);
    if (fromLength !== undefined && fromLength <= toLength) return { using: sql`${col}::${sqlTypeOf(to)}` };
    return { using: sql`left(${text}, ${sql.lit(toLength)})`, lost: sql`length(${text}) > ${sql.lit(toLength)}` };
  }
  if (to === 'numeric' && from === 'integer') return { using: sql`${col}::numeric` };
  if ((to === 'numeric' || to === 'integer') && from === 'boolean') return { using: sql`(case when ${col} then 1 else 0 end)::${sqlTypeOf(to)}` };
  if (to === 'integer' && from === 'numeric') {
    const fits = sql`(${col} = trunc(${col}) and ${col} between -2147483648 and 2147483647)`;
    return { using: sql`(case when ${fits} then ${col}::integer end)`, lost: sql`not ${fits}` };
  }
  if (to === 'boolean' && (from === 'numeric' || from === 'integer')) {
    return { using: sql`(case when ${col} = 1 then true when ${col} = 0 then false end)`, lost: sql`${col} not in (0, 1)` };
  }
  if (to === 'numeric' || to === 'integer' || to === 'timestamptz' || to === 'boolean') {
    const cast = tryCast(to, text);
    return { using: cast, lost: sql`${cast} is null` };
  }
  if (to === 'text[]') {
    if (from === 'jsonb') return { using: sql`null::text[]`, lost: sql`true` };
    if (isText(from)) return { using: sql`(case when ${col} is null or ${col} = '' then null else array[${col}::text] end)` };
    return { using: sql`(case when ${col} is null then null else array[${text}] end)` };
  }
  // to jsonb: every value has a JSON form (texts become JSON strings, arrays JSON arrays).
  return { using: sql`to_jsonb(${col})` };
}
