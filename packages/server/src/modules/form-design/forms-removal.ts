import { engineSchemaName } from '../../db/database.ts';
import { setFormsRemoval } from '../function-node/forms-removal-port.ts';
import { dropTablesOfForms } from './ddl-executor.ts';
import { lockForms } from './form-lock.ts';

/** Removing nodes drops their forms' tables, under the form lock so no publish runs meanwhile (function-node's port). */
export function registerFormsRemoval(): void {
  setFormsRemoval(async (trx, edb, engineCode, codes) => {
    await lockForms(trx, engineCode);
    await dropTablesOfForms(edb, engineSchemaName(engineCode), codes);
    // A form made again under the same code must not inherit the old one's permission groups (docs/decisions/0037).
    if (codes.length) await edb.deleteFrom('form_permission_groups').where('schema_code', 'in', codes).execute();
  });
}
