import type { Transaction } from 'kysely';
import type { PlatformDb } from '../../db/types.ts';
import type { EngineExecutor } from './function-node.repo.ts';

// The port through which removing nodes drops the data tables of the forms among them. Form design owns those tables
// and stands above function nodes, so it registers the work at start (registerFormsRemoval in
// form-design/forms-removal.ts, called by buildApp; docs/decisions/0026: the module graph is a DAG).

/** Drops the tables of the forms among `codes`, in the removal's transaction. */
export type DropFormsOf = (trx: Transaction<PlatformDb>, edb: EngineExecutor, engineCode: string, codes: string[]) => Promise<void>;

let drop: DropFormsOf | undefined;

export function setFormsRemoval(next: DropFormsOf): void {
  drop = next;
}

/** Further work of a removal, by modules above form design that keep rows by form or node code (app packages, 0130). */
const extras: DropFormsOf[] = [];

export function addFormsRemoval(extra: DropFormsOf): void {
  if (!extras.includes(extra)) extras.push(extra);
}

/** The registered removal; removing nodes without it would leave their forms' tables behind, so it refuses instead. */
export const dropFormsOf: DropFormsOf = async (...args) => {
  if (!drop) throw new Error('forms removal not registered: call registerFormsRemoval() (form-design) at start');
  for (const extra of extras) await extra(...args);
  return drop(...args);
};
