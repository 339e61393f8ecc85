import { AppError } from '../../lib/app-error.ts';
import type { NodeViewer } from '../function-node/function-node.policy.ts';
import type { RecordFileAccess } from '../files/files.policy.ts';
import { canReadRecord } from './record-policy.ts';
import { findRecord } from './records.repo.ts';
import { runtimeFormFor, type RuntimeForm } from './runtime-form.ts';

// The files' record-level check (docs/decisions/0008 "Who may read a file"), supplied by this module: a claimed
// file is read by whoever may read its record — the form opens for them (getRuntimeFormOrThrow's rule: published,
// not hidden from them), the record exists, and the record policy lets them read it. A removed record's files are
// read by nobody.

/** One call asks about many files: the runtime form is loaded once per viewer (one call) and form. */
const formsByViewer = new WeakMap<NodeViewer, Map<string, Promise<RuntimeForm | null>>>();

function formFor(edb: Parameters<RecordFileAccess>[0], viewer: NodeViewer, schemaCode: string): Promise<RuntimeForm | null> {
  let forms = formsByViewer.get(viewer);
  if (!forms) formsByViewer.set(viewer, (forms = new Map()));
  let form = forms.get(schemaCode);
  if (!form) {
    form = runtimeFormFor(edb, viewer, schemaCode).catch((error: unknown) => {
      if (error instanceof AppError) return null;
      throw error;
    });
    forms.set(schemaCode, form);
  }
  return form;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const recordFileAccess: RecordFileAccess = async (edb, viewer, record) => {
  if (!UUID.test(record.objectId)) return false;
  const form = await formFor(edb, viewer, record.schemaCode);
  if (!form) return false;
  return canReadRecord(edb, form, await findRecord(edb, form, record.objectId), viewer.userId);
};
