// The script APIs' declarations (docs/decisions/0118), as the code editor gives them to TypeScript for completion and
// type checks. SERVER_SCRIPT_API_DTS is kept in step with the server's prelude (server/src/modules/script/prelude.ts);
// BROWSER_SCRIPT_API_DTS with the browser form API.

export const SERVER_SCRIPT_API_DTS = `
/** A filter: one condition, or all (and) / any (or) of several. */
type ScriptFilter =
  | { field: string; op: '=' | '!=' | '>' | '>=' | '<' | '<=' | 'contains' | 'in' | 'empty' | 'notEmpty'; value?: string | number | boolean | null | (string | number | boolean | null)[] }
  | { and: ScriptFilter[] }
  | { or: ScriptFilter[] };

/** A record: its fields by code, its system fields (ObjectId, Name, Status, SeqNo, CreatedBy, OwnerId, …) and, from get, its sub-tables' rows. */
type ScriptRecord = Record<string, any> & { ObjectId: string };

interface ScriptQueryOptions {
  filter?: ScriptFilter | null;
  sort?: { field: string; direction?: 'asc' | 'desc' } | { field: string; direction?: 'asc' | 'desc' }[];
  /** From 1. */
  page?: number;
  /** At most 500 (default 50). */
  pageSize?: number;
}

interface ScriptRecords {
  /** One record (with its sub-tables), or null when it does not exist or may not be read. */
  get(schemaCode: string, objectId: string): Promise<ScriptRecord | null>;
  query(schemaCode: string, options?: ScriptQueryOptions): Promise<{ rows: ScriptRecord[]; total: number }>;
  count(schemaCode: string, filter?: ScriptFilter | null): Promise<number>;
  /** A new record: a draft, or effective with submit (a workflow form's records are saved as drafts only). */
  create(schemaCode: string, values: Record<string, any>, options?: { submit?: boolean; children?: Record<string, Record<string, any>[]> }): Promise<{ objectId: string }>;
  update(schemaCode: string, objectId: string, values: Record<string, any>): Promise<{ objectId: string }>;
  remove(schemaCode: string, objectId: string): Promise<{ objectId: string; removed: true }>;
}

interface ScriptUser { id: string; name: string; departmentId: string | null; state: 'active' | 'disabled' }
interface ScriptDepartment { id: string; name: string; parentId: string | null; managerId: string | null }

interface ScriptOrg {
  user(id: string): Promise<ScriptUser | null>;
  department(id: string): Promise<ScriptDepartment | null>;
  /** The departments under parentId; without it, the company (the top department). */
  departments(parentId?: string): Promise<ScriptDepartment[]>;
  /** Active members of a department. */
  usersOf(departmentId: string): Promise<ScriptUser[]>;
  roles(): Promise<{ id: string; name: string; groupName: string | null }[]>;
  /** Active members of a role, named by its id or its name. */
  usersInRole(role: string): Promise<ScriptUser[]>;
}

interface ScriptContext {
  readonly engine: { readonly code: string; readonly name: string };
  readonly user: { readonly id: string; readonly name: string; readonly departmentId: string | null };
  readonly appCode: string;
  readonly schemaCode: string | null;
  readonly requestId: string | null;
  /** Save, Submit, Remove, a workflow action or a button's own action name. */
  readonly actionName: string | null;
  readonly objectId: string | null;
  readonly isNew: boolean;
  /** The record's values: change them and the form (onLoad) or the save (onSubmit) takes the changes. */
  record: Record<string, any>;
  /** Sub-tables' rows by sub-table code. */
  children: Record<string, Record<string, any>[]>;
  /** The records a list button acts on. */
  readonly objectIds: string[];
  /** Lines in the business log. */
  log(...values: any[]): void;
  warn(...values: any[]): void;
  error(...values: any[]): void;
  /** Stops the action; the message is shown to the user as it is. */
  refuse(message: string): never;
  /** Data for the browser. */
  respond(data: any): void;
  /** The caller's rights. */
  readonly records: ScriptRecords;
  /** The system's rights. */
  asSystem(): { readonly records: ScriptRecords };
  readonly org: ScriptOrg;
  notify(userIds: string[], message: { title: string; content?: string; schemaCode?: string; objectId?: string }): Promise<{ receivers: string[]; sent: boolean }>;
  readonly connectors: { call(code: string, params?: any): Promise<any> };
}
`;

export const BROWSER_SCRIPT_API_DTS = `
interface ScriptForm {
  /** A field's value (a sub-table: its rows). */
  get(code: string): any;
  set(code: string, value: any): void;
  show(code: string): void;
  hide(code: string): void;
  lock(code: string): void;
  unlock(code: string): void;
  message(text: string, type?: 'info' | 'success' | 'warning' | 'error'): void;
  /** Runs one of the form's server actions (actions[actionName] of its server script). */
  callServer(actionName: string, params?: Record<string, any>): Promise<any>;
}

/* Handlers a browser script may export:
 *   onLoad(form), afterLoad(form), onChange(form, field, value),
 *   validate(form): string | void (a text stops the submit), beforeSubmit(form, actionName): boolean | void,
 *   afterSubmit(form, result), buttons: { [actionName]: (form) => void }
 */
`;
