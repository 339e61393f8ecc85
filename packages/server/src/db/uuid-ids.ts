import { sql, type Expression, type RawBuilder } from 'kysely';

// A form table's system id columns as uuid (docs/decisions/0128). Tables made before it keep them as text until the
// storage job converts them (form_tables.uuid_ids), so the statements that compare them with text — a department
// list, the caller's id, a value from a filter — are written for the shape the form's table has.

/** The main table's system columns that hold a person's, a department's or a flow instance's newId(). */
export const UUID_ID_COLUMNS = ['CreatedBy', 'ModifiedBy', 'OwnerId', 'OwnerDeptId', 'WorkflowInstanceId'] as const;
const COLUMNS: ReadonlySet<string> = new Set(UUID_ID_COLUMNS);
export const isUuidIdColumn = (code: string): boolean => COLUMNS.has(code);

/** A uuid's text form as PostgreSQL reads it (any case). */
export const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** Matches no stored id: newId() never makes it (its version nibble is 7). */
export const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * A text id as a parameter compared with a system id column: as given for a text column; for a uuid column the
 * same when it is a uuid's text, else an id no row holds — it names nobody, as it named nobody in the text column,
 * and PostgreSQL never reads it as a uuid (22P02 would fail the statement).
 */
export const idParam = (uuid: boolean, id: string): string => (!uuid || UUID_TEXT.test(id) ? id : NO_ID);

/**
 * A subquery of text ids (org_units.id, org_user_departments.department_id) in the type of a system id column: for
 * a uuid column each id converted, a text that is not a uuid leaving out (null) instead of failing the statement.
 */
export function idsOfType(uuid: boolean, textIds: Expression<unknown> | RawBuilder<unknown>): RawBuilder<unknown> {
  if (!uuid) return sql`(${textIds})`;
  return sql`(select case when x.id ~ ${sql.lit(UUID_PATTERN)} then x.id::uuid end from (${textIds}) as x(id))`;
}
